import { PassThrough } from 'node:stream';
import type { WorkspaceContext } from '../../context.js';
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

/**
 * The open event streams of this process's visitors (GET /v2/widget/conversations/{id}/stream).
 *
 * Each stream polls its conversation's events and state in the database every `pollMs`, rather
 * than waiting on PostgreSQL LISTEN/NOTIFY: a reply written by any process (another API process,
 * a worker, a person's reply through Generate Answer) is seen with no channel between processes,
 * the same code serves PGlite and PostgreSQL, nothing is lost while a connection to the database
 * drops (the next poll reads from the cursor), and `Last-Event-ID` resumption is the same query.
 * The price is one index-backed query pair per open stream per interval, and up to `pollMs` of
 * delay; LISTEN would need a dedicated connection per process and a poll to catch up anyway.
 */
export class VisitorStreams {
  private readonly open = new Set<() => void>();

  constructor(private readonly options: { pollMs: number; heartbeatMs: number }) {}

  /**
   * Starts a stream from its first page (read by the caller, so a bad cursor was still a 400):
   * `event` events (the visitor's share of the conversation's events, `id` the event's), a
   * `status` event whenever the status or the human takeover changes (and first of all), and a
   * heartbeat comment every `heartbeatMs` so proxies keep the connection. Ends when the client
   * goes, the conversation disappears, or the process closes.
   */
  start(ctx: WorkspaceContext, conversation: WidgetConversationRow, first: VisitorPage, after: string | undefined, onClientGone: (stop: () => void) => void): PassThrough {
    const out = new PassThrough();
    let closed = false;
    let wake: (() => void) | undefined;
    let timer: NodeJS.Timeout | undefined;
    // Nothing is written once the stream ended: a poll in flight when the client went finds it closed.
    const write = (chunk: string) => {
      if (!closed) out.write(chunk);
    };
    const heartbeat = setInterval(() => write(': heartbeat\n\n'), this.options.heartbeatMs);
    const stop = () => {
      if (closed) return;
      closed = true;
      clearInterval(heartbeat);
      clearTimeout(timer);
      wake?.();
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
      for (;;) {
        if (closed) return;
        send(page);
        if (!page.hasMore) {
          await new Promise<void>((resolve) => {
            wake = resolve;
            timer = setTimeout(resolve, this.options.pollMs);
          });
        }
        if (closed) return;
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

  /** Ends every open stream (the process is closing: its connections must not hold it open). */
  closeAll(): void {
    for (const stop of [...this.open]) stop();
  }
}

