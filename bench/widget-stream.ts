// A visitor's end of the widget (bench/widget.ts): the visitor routes called as a page does, with
// the widget key, the visitor token and the page's Origin, and the conversation's Server-Sent
// Events read over fetch, noting when each event arrived.
import { callJson, HttpError, sleep } from './support.js';

/** An event as the visitor routes answer it (docs/widget.md). */
export interface VisitorEvent {
  id: string;
  role: string;
  message: string;
  handover: boolean;
}

/** The page a visitor is on: the server, the widget key and the origin the key allows. */
export interface WidgetPage {
  url: string;
  widgetKey: string;
  origin: string;
}

/**
 * One open stream of a conversation: the time (performance.now()) each event id arrived, the
 * last status seen, and a wait for an event that may have arrived already.
 */
export class VisitorStream {
  private readonly arrivals = new Map<string, number>();
  private readonly waiters = new Map<string, (at: number) => void>();
  private readonly abort = new AbortController();
  private reading: Promise<void> = Promise.resolve();
  humanTakeover = false;
  /** Why the stream ended before it was closed, if it did. */
  failure: string | undefined;

  /** Opens the stream (resolves once the server answered 200 and the body is being read). */
  async open(page: WidgetPage, conversationId: string, visitorToken: string): Promise<void> {
    const response = await fetch(`${page.url}/v2/widget/conversations/${conversationId}/stream`, {
      headers: { authorization: `Bearer ${page.widgetKey}`, 'x-visitor-token': visitorToken, origin: page.origin, accept: 'text/event-stream' },
      signal: this.abort.signal,
    });
    if (!response.ok || !response.body) throw new HttpError(response.status, 'open the stream', await response.text());
    this.reading = this.read(response.body).catch((error: unknown) => {
      if (!this.abort.signal.aborted) this.failure = error instanceof Error ? error.message : String(error);
    });
  }

  private async read(body: ReadableStream<Uint8Array>): Promise<void> {
    const decoder = new TextDecoder();
    let buffer = '';
    for await (const chunk of body) {
      const at = performance.now();
      buffer += decoder.decode(chunk, { stream: true });
      let end: number;
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        this.dispatch(buffer.slice(0, end), at);
        buffer = buffer.slice(end + 2);
      }
    }
    if (!this.abort.signal.aborted) this.failure = 'the server ended the stream';
  }

  /** One SSE block: `event:` and `data:` lines (comments and `retry:` are skipped). */
  private dispatch(block: string, at: number): void {
    let event = 'message';
    let data = '';
    for (const line of block.split('\n')) {
      if (line.startsWith('event: ')) event = line.slice(7);
      else if (line.startsWith('data: ')) data += line.slice(6);
    }
    if (event === 'status') this.humanTakeover = (JSON.parse(data) as { humanTakeover: boolean }).humanTakeover;
    if (event !== 'event') return;
    const { id } = JSON.parse(data) as VisitorEvent;
    this.arrivals.set(id, at);
    this.waiters.get(id)?.(at);
    this.waiters.delete(id);
  }

  /** When the event arrived on the stream (performance.now()); rejects after `timeoutMs`. */
  arrival(id: string, timeoutMs: number): Promise<number> {
    const known = this.arrivals.get(id);
    if (known !== undefined) return Promise.resolve(known);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiters.delete(id);
        reject(new Error(`event ${id} did not reach the stream within ${timeoutMs / 1000} s${this.failure ? ` (${this.failure})` : ''}`));
      }, timeoutMs);
      this.waiters.set(id, (at) => {
        clearTimeout(timer);
        resolve(at);
      });
    });
  }

  /** Whether the stream has shown the conversation held by the team, waiting up to `ms`. */
  async waitForTakeover(ms: number): Promise<boolean> {
    const deadline = Date.now() + ms;
    while (!this.humanTakeover && Date.now() < deadline) await sleep(20);
    return this.humanTakeover;
  }

  async close(): Promise<void> {
    this.abort.abort();
    await this.reading;
  }
}

/** A visitor route called from the page: the widget key, the token (after the start) and the Origin. */
export function visitorCall<T>(page: WidgetPage, path: string, body: unknown, visitorToken?: string): Promise<T> {
  return callJson<T>(`${page.url}${path}`, 'POST', {
    authorization: `Bearer ${page.widgetKey}`,
    origin: page.origin,
    ...(visitorToken ? { 'x-visitor-token': visitorToken } : {}),
  }, body);
}
