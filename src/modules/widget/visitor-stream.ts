import { PassThrough } from 'node:stream';
import type { Logger } from 'pino';
import type { WorkspaceContext } from '../../context.js';
import type { Db } from '../../db/database.js';
import { defineListener, type EventPort } from '../../events/bus.js';
import { AnswerPartials } from './answer-partials.js';
import { StreamPoller } from './stream-poller.js';
import { presentVisitorEvent, visibleToVisitor } from './visitors.presenter.js';
import { type VisitorPage, visitorEvents } from './visitors.service.js';
import type { WidgetConversationRow } from './visitors.repository.js';

/** How long a browser waits before reconnecting a dropped stream (the `retry:` field). */
const RETRY_MS = 3000;
const PAGE = 100;

/** One Server-Sent Event: `id` (when given) is what `Last-Event-ID` resumes from. */
function sse(event: string, data: unknown, id?: string): string {
  return `${id ? `id: ${id}\n` : ''}event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}

/** Where `next` stops repeating `previous` (never inside a surrogate pair). */
function sharedPrefix(previous: string, next: string): number {
  let at = 0;
  while (at < previous.length && at < next.length && previous.charCodeAt(at) === next.charCodeAt(at)) at += 1;
  const high = next.charCodeAt(at - 1);
  return at > 0 && at < next.length && high >= 0xd800 && high <= 0xdbff ? at - 1 : at;
}

/**
 * The open event streams of this process's visitors (GET /v2/widget/conversations/{id}/stream).
 *
 * The streams read the database, rather than waiting on PostgreSQL LISTEN/NOTIFY: a reply written
 * by any process (another API process, a worker, a person's reply through Generate Answer) is seen
 * with no channel between processes, the same code serves PGlite and PostgreSQL, nothing is lost
 * while a connection to the database drops (the next read starts from the cursor), and
 * `Last-Event-ID` resumption is the same query. One poller (`StreamPoller`) asks every `pollMs`
 * which of the streams' conversations changed, in one query for all, and only their streams read
 * their events; a write of this process (a `conversation.changed` after its commit) wakes its
 * streams at once. LISTEN would need a dedicated connection per process and a poll to catch up anyway.
 *
 * A model's answer being written for a visitor's message posted to this process also reaches the
 * conversation's streams of this process, as `partial` events (`partials`, in memory).
 */
export class VisitorStreams {
  private readonly open = new Set<() => void>();
  private readonly poller: StreamPoller;
  private readonly unlisten: () => void;
  /** The answers being written in this process; the visitor-message route publishes them. */
  readonly partials = new AnswerPartials();
  /** Reads of a stream's events after its first page (the metrics show them). */
  reads = 0;

  constructor(private readonly options: { pollMs: number; heartbeatMs: number; db: Db; log: Logger; events: EventPort }) {
    this.poller = new StreamPoller({ db: options.db, log: options.log, pollMs: options.pollMs });
    this.unlisten = options.events.listen(
      defineListener({
        name: 'widget.wake-streams',
        event: 'conversation.changed',
        phase: 'commit',
        handle: async (_ctx, { conversationId }) => this.poller.changed(conversationId),
      }),
    );
  }

  /** What /metrics shows of the streams: open now, polls and reads so far. */
  stats(): { open: number; polls: number; reads: number } {
    return { open: this.open.size, polls: this.poller.polls, reads: this.reads };
  }

  /**
   * Starts a stream from its first page (read by the caller, so a bad cursor was still a 400):
   * `event` events (the visitor's share of the conversation's events, `id` the event's), a
   * `status` event whenever the status or the human takeover changes (and first of all), and a
   * heartbeat comment every `heartbeatMs` so proxies keep the connection. Ends when the client
   * goes, the conversation disappears, or the process closes.
   *
   * While a model writes an answer: `partial` events `{ replyTo, from, text }` (the answer so far is
   * the first `from` characters of the one before, then `text`), and once the answer is stored, a
   * `partial_end` `{ replyTo }` right after the stored events (read after it was stored), which
   * replace the partial answer.
   */
  start(ctx: WorkspaceContext, conversation: WidgetConversationRow, first: VisitorPage, after: string | undefined, onClientGone: (stop: () => void) => void): PassThrough {
    const out = new PassThrough();
    let closed = false;
    // A wake while a read is in flight is kept (`pending`): that read may have begun before the change.
    let pending = false;
    let resume: (() => void) | undefined;
    const wake = () => {
      pending = true;
      resume?.();
    };
    // Nothing is written once the stream ended: a poll in flight when the client went finds it closed.
    const write = (chunk: string) => {
      if (!closed) out.write(chunk);
    };
    const heartbeat = setInterval(() => write(': heartbeat\n\n'), this.options.heartbeatMs);
    // The answer text this stream sent for each message being answered, and the answers since stored.
    const partialText = new Map<string, string>();
    const stored: string[] = [];
    const unsubscribe = this.partials.subscribe(conversation.id, {
      partial: ({ replyTo, text }) => {
        const from = sharedPrefix(partialText.get(replyTo) ?? '', text);
        partialText.set(replyTo, text);
        write(sse('partial', { replyTo, from, text: text.slice(from) }));
      },
      done: (replyTo) => {
        stored.push(replyTo);
        wake();
      },
    });
    const unwatch = this.poller.watch(conversation.id, wake);
    const stop = () => {
      if (closed) return;
      closed = true;
      unsubscribe();
      unwatch();
      clearInterval(heartbeat);
      wake();
      this.open.delete(stop);
      out.end();
    };
    this.open.add(stop);
    onClientGone(stop);
    out.on('close', stop);
    out.on('error', stop);
    write(`retry: ${RETRY_MS}\n\n`);

    let cursor = after;
    let state: string | undefined;
    const send = (page: VisitorPage) => {
      for (const row of page.events) {
        if (visibleToVisitor(row)) write(sse('event', presentVisitorEvent(row), row.id));
        cursor = row.id;
      }
      const now = `${page.status}|${page.humanTakeover}`;
      if (now !== state) {
        state = now;
        write(sse('status', { status: page.status, humanTakeover: page.humanTakeover }));
      }
    };
    const loop = async (page: VisitorPage) => {
      // Answers stored before `page` was read: their events are in it (or in the pages after it).
      const settled: string[] = [];
      for (;;) {
        if (closed) return;
        send(page);
        if (!page.hasMore) {
          for (const replyTo of settled.splice(0)) if (partialText.delete(replyTo)) write(sse('partial_end', { replyTo }));
        }
        if (!page.hasMore && stored.length === 0 && !pending) {
          // Until the poller finds the conversation changed, this process wrote to it, or the stream ends.
          await new Promise<void>((resolve) => {
            resume = resolve;
          });
          resume = undefined;
        }
        if (closed) return;
        pending = false;
        settled.push(...stored.splice(0));
        this.reads += 1;
        page = await visitorEvents(ctx, conversation, cursor, { limit: PAGE, field: 'Last-Event-ID' });
      }
    };
    loop(first).catch((error: unknown) => {
      // The conversation was deleted, or the database failed: the stream ends, the browser retries.
      ctx.log.warn({ err: error, conversationId: conversation.id }, 'widget stream ended');
      stop();
    });
    return out;
  }

  /** Ends every open stream and the poller (the process is closing: its connections must not hold it open). */
  closeAll(): void {
    this.unlisten();
    this.poller.close();
    for (const stop of [...this.open]) stop();
  }
}

