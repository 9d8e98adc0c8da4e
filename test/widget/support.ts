// Shared setup of the widget tests: an agent answering from the conversation tests' knowledge base,
// its widget key, visitor calls from an allowed origin, and a Server-Sent Events reader.
import assert from 'node:assert/strict';
import type { HttpResult, TestApp } from '../support/app.js';
import type { Tenant } from '../support/factories.js';
import { poll } from '../support/poll.js';
import { expectStatus } from '../support/security.js';
import { setupAgent, type Setup } from '../conversations/support.js';

export const ORIGIN = 'https://shop.example';
export const OTHER_ORIGIN = 'https://evil.example';
export const START = '/v2/widget/conversations';
export const messagesOf = (id: string) => `/v2/widget/conversations/${id}/messages`;
export const eventsOf = (id: string, query = '') => `/v2/widget/conversations/${id}/events${query}`;
export const streamOf = (id: string, query = '') => `/v2/widget/conversations/${id}/stream${query}`;
export const feedbackOf = (id: string, eventId: string) => `/v2/widget/conversations/${id}/events/${eventId}/feedback`;
export const keysOf = (agentId: string) => `/v2/bots/${agentId}/widget-keys/public`;
export const keyPath = (id: string) => `/v2/widget-keys/${id}/public`;

export interface WidgetKey {
  id: string; companyId: string; botId: string; name: string; key: string; allowedOrigins: string[]; visitorRateLimit: number | null; createdAt: string;
}
export interface VisitorEvent {
  id: string; interactionId: string; role: string; message: string; createdAt: string; handover: boolean; csatRating: number | null; resolved: boolean | null;
}
export interface VisitorEvents { interactionId: string; status: string | null; humanTakeover: boolean; events: VisitorEvent[]; hasMore: boolean }
export interface Started { conversationId: string; visitorToken: string }

export interface WidgetSetup extends Setup {
  widget: WidgetKey;
}

/** An agent with the fixed knowledge base and a widget key for ORIGIN. */
export async function setupWidget(t: TestApp, options: { tenant?: Tenant; visitorRateLimit?: number } = {}): Promise<WidgetSetup> {
  const setup = await setupAgent(t, options.tenant);
  const widget = await createKey(t, setup.w.key, setup.agentId, { visitorRateLimit: options.visitorRateLimit });
  return { ...setup, widget };
}

export function createKey(t: TestApp, key: string, agentId: string, extra: { visitorRateLimit?: number | undefined; allowedOrigins?: string[] } = {}): Promise<WidgetKey> {
  return expectStatus<WidgetKey>(t, 201, 'POST', keysOf(agentId), key, { name: 'Shop', allowedOrigins: extra.allowedOrigins ?? [ORIGIN], ...(extra.visitorRateLimit ? { visitorRateLimit: extra.visitorRateLimit } : {}) });
}

/** A visitor's call: the widget key, the page's Origin, the conversation's visitor token. */
export function visit<T = unknown>(
  t: TestApp,
  method: string,
  path: string,
  options: { key: string; token?: string; origin?: string | null; body?: unknown },
): Promise<HttpResult<T>> {
  const headers: Record<string, string> = {};
  if (options.origin !== null) headers.origin = options.origin ?? ORIGIN;
  if (options.token) headers['x-visitor-token'] = options.token;
  return t.request<T>(method, path, { key: options.key, body: options.body, headers });
}

export async function expectVisit<T>(t: TestApp, status: number, method: string, path: string, options: Parameters<typeof visit>[3]): Promise<T> {
  const res = await visit<T>(t, method, path, options);
  assert.equal(res.status, status, `${method} ${path}: ${res.text}`);
  return res.body;
}

export function start(t: TestApp, key: string, body: unknown = {}): Promise<Started> {
  return expectVisit<Started>(t, 201, 'POST', START, { key, body });
}

export function send(t: TestApp, key: string, c: Started, content: string): Promise<VisitorEvent[]> {
  return expectVisit<VisitorEvent[]>(t, 200, 'POST', messagesOf(c.conversationId), { key, token: c.visitorToken, body: { content } });
}

export interface SseMessage { event: string; id?: string; data: unknown }

/** A stream's `event` of `role` (whose message matches `message`, when given). */
export const isEvent = (role: string, message?: RegExp) => (m: SseMessage) =>
  m.event === 'event' && (m.data as VisitorEvent).role === role && (!message || message.test((m.data as VisitorEvent).message));
/** A stream's `status` event with these values. */
export const isStatus = (status: string | null, humanTakeover: boolean) => (m: SseMessage) =>
  m.event === 'status' && JSON.stringify(m.data) === JSON.stringify({ status, humanTakeover });

/** An open event stream read as a browser would: parsed events and comment lines, in order. */
export interface SseReader {
  status: number;
  headers: Headers;
  messages: SseMessage[];
  comments: string[];
  /** Waits for a message after the `from`-th that satisfies `match`; answers it. */
  next(match: (m: SseMessage) => boolean, from?: number): Promise<SseMessage>;
  close(): void;
}

export async function openStream(url: string, headers: Record<string, string>): Promise<SseReader> {
  const controller = new AbortController();
  const response = await fetch(url, { headers, signal: controller.signal });
  const messages: SseMessage[] = [];
  const comments: string[] = [];
  let ended = false;
  if (response.ok && response.body) {
    const reader = response.body.getReader();
    const decoder = new TextDecoder();
    let buffer = '';
    void (async () => {
      try {
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          buffer += decoder.decode(value, { stream: true });
          let end: number;
          while ((end = buffer.indexOf('\n\n')) >= 0) {
            const block = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            const fields: Record<string, string> = {};
            for (const line of block.split('\n')) {
              if (line.startsWith(':')) comments.push(line.slice(1).trim());
              else {
                const colon = line.indexOf(':');
                fields[line.slice(0, colon)] = line.slice(colon + 1).trimStart();
              }
            }
            if (fields.data !== undefined) messages.push({ event: fields.event ?? 'message', id: fields.id, data: JSON.parse(fields.data) });
          }
        }
      } catch {
        // aborted by close()
      } finally {
        ended = true;
      }
    })();
  }
  return {
    status: response.status,
    headers: response.headers,
    messages,
    comments,
    next: (match, from = 0) =>
      poll(() => messages.slice(from).find(match), (m) => m !== undefined || ended, { what: () => `a stream message; seen ${JSON.stringify(messages)}` }).then((m) => {
        if (!m) throw new Error(`the stream ended; seen ${JSON.stringify(messages)}`);
        return m;
      }),
    close: () => controller.abort(),
  };
}

/** The stream of a visitor's conversation, opened with headers as the widget's fetch reader would. */
export function streamFor(t: TestApp, key: string, c: Started, extra: Record<string, string> = {}): Promise<SseReader> {
  return openStream(`${t.url}${streamOf(c.conversationId)}`, { authorization: `Bearer ${key}`, origin: ORIGIN, 'x-visitor-token': c.visitorToken, ...extra });
}
