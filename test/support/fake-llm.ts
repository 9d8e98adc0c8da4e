import './network-guard.js';
import { createHash } from 'node:crypto';
import { createServer, STATUS_CODES, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { completionChunks, DEFAULT_CHUNK_SIZE, wantsUsage } from './fake-llm-stream.js';

/**
 * A fake language-model server on 127.0.0.1 for tests. It speaks the real wire formats of the
 * three providers Parley supports, so the AI SDK clients run unchanged against it:
 *
 * - OpenAI and OpenAI-compatible: `POST /v1/chat/completions` (plain, or streamed as `text/event-stream`
 *   chunks when the request says `stream: true`, fake-llm-stream.ts) and `POST /v1/embeddings`;
 * - Anthropic: `POST /v1/messages` (non-streaming), answering structured output either as a text
 *   block (native `output_config.format`) or as the `json` tool call, whichever the request asked for.
 *
 * Point Parley at it with `PARLEY_LLM_PROVIDER=openai-compatible` (or `openai`, `anthropic`),
 * `PARLEY_LLM_BASE_URL=<fake.url>`, `PARLEY_LLM_MODEL=<any id>` and `PARLEY_LLM_API_KEY=<any key>`.
 *
 * Each request takes its answer from, in order: the queue (`enqueue`), the handler (`setHandler`,
 * when it returns a reply), the default reply. The default for chat and messages is a 400 error
 * saying no answer was programmed (a fast, clear failure); the default for embeddings is
 * `fakeEmbedding(text)` for every input. Every request is recorded in `requests`.
 */
export interface FakeLlm {
  /** Base URL ending in `/v1`, e.g. `http://127.0.0.1:41234/v1`. */
  readonly url: string;
  /** Every request received, oldest first. */
  readonly requests: FakeLlmRequest[];
  /** Appends replies; each request takes the first one (whatever its endpoint). */
  enqueue(...replies: FakeLlmReply[]): void;
  /** Answers requests the queue does not; return undefined to fall through to the default reply. */
  setHandler(handler: FakeLlmHandler | undefined): void;
  /** Forgets queued replies, the handler and the recorded requests. */
  reset(): void;
  close(): Promise<void>;
}

/** Which API a request called. */
export type FakeLlmEndpoint = 'chat' | 'embeddings' | 'messages' | 'unknown';

export interface FakeLlmRequest {
  readonly method: string;
  /** Path with query, e.g. `/v1/chat/completions`. */
  readonly path: string;
  readonly endpoint: FakeLlmEndpoint;
  readonly headers: IncomingMessage['headers'];
  /** The parsed JSON body (`{}` when the body is not a JSON object). */
  readonly body: Record<string, unknown>;
  readonly rawBody: string;
}

/** Token counts a reply reports; unset counts are estimated as ceil(characters / 4). */
export interface FakeLlmUsage {
  inputTokens?: number;
  outputTokens?: number;
}

interface ReplyOptions {
  /** Wait this long before answering (a slow model); nothing is sent if the client gives up first. */
  delayMs?: number;
  usage?: FakeLlmUsage;
  /** A streamed chat answer (`stream: true`): characters of content per chunk (default 16). */
  chunkSize?: number;
  /** A streamed chat answer: wait this long before each content chunk (a slow model). */
  chunkDelayMs?: number;
}

/**
 * One programmed answer:
 * - `{ json }` the structured answer, wrapped in the provider's format (message content, or the
 *   input of Anthropic's `json` tool when the request offered that tool);
 * - `{ text }` raw message content, e.g. malformed JSON;
 * - `{ status, body?, headers? }` an HTTP error; without a body the provider's error shape is used;
 * - `{ embeddings }` the vectors of an embeddings request, one per input.
 */
export type FakeLlmReply =
  | ({ json: unknown } & ReplyOptions)
  | ({ text: string } & ReplyOptions)
  | ({ status: number; body?: unknown; headers?: Record<string, string> } & ReplyOptions)
  | ({ embeddings: number[][] } & ReplyOptions);

export type FakeLlmHandler = (request: FakeLlmRequest) => FakeLlmReply | undefined | Promise<FakeLlmReply | undefined>;

export interface FakeLlmOptions {
  /** Dimensions of the default embeddings (default 8). */
  dimensions?: number;
  /** Replaces the built-in default reply (used when neither the queue nor the handler answers). */
  defaultReply?: FakeLlmHandler;
}

/**
 * A deterministic, unit-length vector for a text: hashed bag of words, so texts sharing words
 * point in similar directions (enough for retrieval tests), and equal texts get equal vectors.
 */
export function fakeEmbedding(text: string, dimensions = 8): number[] {
  const vector = new Array<number>(dimensions).fill(0);
  const words = text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [text];
  for (const word of words) {
    const digest = createHash('sha256').update(word).digest();
    const index = digest.readUInt32BE(0) % dimensions;
    vector[index] = (vector[index] ?? 0) + ((digest[4] ?? 0) & 1 ? 1 : -1);
  }
  const norm = Math.hypot(...vector);
  if (norm === 0) {
    const digest = createHash('sha256').update(`empty:${text}`).digest();
    return vector.map((_, i) => (i === (digest[0] ?? 0) % dimensions ? 1 : 0));
  }
  return vector.map((v) => v / norm);
}

const estimateTokens = (value: unknown): number => {
  const text = typeof value === 'string' ? value : JSON.stringify(value ?? '');
  return Math.ceil(text.length / 4);
};

function endpointOf(method: string, path: string): FakeLlmEndpoint {
  if (method !== 'POST') return 'unknown';
  const bare = path.split('?')[0] ?? path;
  if (bare.endsWith('/chat/completions')) return 'chat';
  if (bare.endsWith('/embeddings')) return 'embeddings';
  if (bare.endsWith('/messages')) return 'messages';
  return 'unknown';
}

function errorBody(endpoint: FakeLlmEndpoint, status: number, message: string): unknown {
  return endpoint === 'messages'
    ? { type: 'error', error: { type: status === 429 ? 'rate_limit_error' : 'api_error', message } }
    : { error: { message, type: status === 429 ? 'rate_limit_exceeded' : 'fake_error', code: null } };
}

function defaultReply(dimensions: number): FakeLlmHandler {
  return (request) => {
    if (request.endpoint === 'embeddings') {
      return { embeddings: inputsOf(request).map((text) => fakeEmbedding(text, dimensions)) };
    }
    return {
      status: 400,
      body: errorBody(request.endpoint, 400, `fake LLM: no reply programmed for ${request.method} ${request.path}`),
    };
  };
}

function inputsOf(request: FakeLlmRequest): string[] {
  const input = request.body.input;
  if (typeof input === 'string') return [input];
  return Array.isArray(input) ? input.map((value) => (typeof value === 'string' ? value : JSON.stringify(value))) : [];
}

interface WireAnswer {
  status: number;
  headers: Record<string, string>;
  body: unknown;
  /** A streamed answer's `data:` payloads, sent as Server-Sent Events instead of `body`. */
  stream?: unknown[];
}

let sequence = 0;

/** Turns a programmed reply into the provider's wire response for this request. */
function toWire(request: FakeLlmRequest, reply: FakeLlmReply): WireAnswer {
  const { endpoint } = request;
  const json = { 'content-type': 'application/json' };
  const model = typeof request.body.model === 'string' ? request.body.model : 'fake-model';
  if ('status' in reply) {
    const body = reply.body ?? errorBody(endpoint, reply.status, STATUS_CODES[reply.status] ?? 'error');
    return { status: reply.status, headers: { ...json, ...reply.headers }, body };
  }
  const misfit = (kind: string): WireAnswer => ({
    status: 400,
    headers: json,
    body: errorBody(endpoint, 400, `fake LLM: a ${kind} reply does not fit ${request.method} ${request.path}`),
  });
  if (request.body.stream === true && endpoint !== 'chat') return misfit('streaming (only chat completions stream)');
  sequence += 1;
  if ('embeddings' in reply) {
    if (endpoint !== 'embeddings') return misfit('embeddings');
    const promptTokens = reply.usage?.inputTokens ?? inputsOf(request).reduce((sum, text) => sum + estimateTokens(text), 0);
    return {
      status: 200,
      headers: json,
      body: {
        object: 'list',
        data: reply.embeddings.map((embedding, index) => ({ object: 'embedding', index, embedding })),
        model,
        usage: { prompt_tokens: promptTokens, total_tokens: promptTokens },
      },
    };
  }
  const content = 'json' in reply ? JSON.stringify(reply.json) : reply.text;
  if (endpoint === 'chat') {
    const promptTokens = reply.usage?.inputTokens ?? estimateTokens(request.body.messages);
    const completionTokens = reply.usage?.outputTokens ?? estimateTokens(content);
    const usage = { prompt_tokens: promptTokens, completion_tokens: completionTokens, total_tokens: promptTokens + completionTokens };
    const created = Math.floor(Date.now() / 1000);
    if (request.body.stream === true) {
      const completion = { id: `chatcmpl-fake-${sequence}`, created, model, content, usage };
      const stream = completionChunks(completion, { chunkSize: reply.chunkSize ?? DEFAULT_CHUNK_SIZE, includeUsage: wantsUsage(request.body) });
      return { status: 200, headers: { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' }, body: null, stream };
    }
    return {
      status: 200,
      headers: json,
      body: {
        id: `chatcmpl-fake-${sequence}`,
        object: 'chat.completion',
        created,
        model,
        choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
        usage,
      },
    };
  }
  if (endpoint === 'messages') {
    const tools = Array.isArray(request.body.tools) ? (request.body.tools as { name?: unknown }[]) : [];
    const asTool = 'json' in reply && tools.some((tool) => tool.name === 'json');
    const usage = {
      input_tokens: reply.usage?.inputTokens ?? estimateTokens([request.body.system, request.body.messages]),
      output_tokens: reply.usage?.outputTokens ?? estimateTokens(content),
    };
    return {
      status: 200,
      headers: json,
      body: {
        id: `msg_fake_${sequence}`,
        type: 'message',
        role: 'assistant',
        model,
        content: asTool
          ? [{ type: 'tool_use', id: `toolu_fake_${sequence}`, name: 'json', input: 'json' in reply ? reply.json : null }]
          : [{ type: 'text', text: content }],
        stop_reason: asTool ? 'tool_use' : 'end_turn',
        stop_sequence: null,
        usage,
      },
    };
  }
  return misfit('model');
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function parseObject(raw: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(raw);
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** Starts the fake model server on a random port of 127.0.0.1. */
export async function startFakeLlm(options: FakeLlmOptions = {}): Promise<FakeLlm> {
  const queue: FakeLlmReply[] = [];
  const requests: FakeLlmRequest[] = [];
  const timers = new Set<NodeJS.Timeout>();
  const fallback = options.defaultReply ?? defaultReply(options.dimensions ?? 8);
  let handler: FakeLlmHandler | undefined;
  const wait = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        timers.delete(timer);
        resolve();
      }, ms);
      timers.add(timer);
    });

  const answer = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const method = req.method ?? 'GET';
    const path = req.url ?? '/';
    const rawBody = await readBody(req);
    const endpoint = endpointOf(method, path);
    const request: FakeLlmRequest = { method, path, endpoint, headers: req.headers, body: parseObject(rawBody), rawBody };
    requests.push(request);
    if (endpoint === 'unknown') {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify(errorBody(endpoint, 404, `fake LLM: no such endpoint ${method} ${path}`)));
      return;
    }
    let gone = false;
    res.on('close', () => {
      gone = true;
    });
    const reply = queue.shift() ?? (await handler?.(request)) ?? (await fallback(request));
    if (!reply) throw new Error('fake LLM: the default reply handler returned nothing');
    if (reply.delayMs) await wait(reply.delayMs);
    if (gone || res.writableEnded) return;
    const wire = toWire(request, reply);
    res.writeHead(wire.status, wire.headers);
    if (!wire.stream) {
      res.end(typeof wire.body === 'string' ? wire.body : JSON.stringify(wire.body));
      return;
    }
    for (const [index, chunk] of wire.stream.entries()) {
      // The role chunk goes at once; each content chunk after the model's pause.
      if (reply.chunkDelayMs && index > 0) await wait(reply.chunkDelayMs);
      if (gone) return;
      res.write(`data: ${JSON.stringify(chunk)}\n\n`);
    }
    res.end('data: [DONE]\n\n');
  };

  const server: Server = createServer((req, res) => {
    answer(req, res).catch(() => res.destroy());
  });
  server.keepAliveTimeout = 1000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;

  return {
    url,
    requests,
    enqueue: (...replies) => {
      queue.push(...replies);
    },
    setHandler: (next) => {
      handler = next;
    },
    reset: () => {
      queue.length = 0;
      requests.length = 0;
      handler = undefined;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const timer of timers) clearTimeout(timer);
        timers.clear();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Settings of a test app whose model is the fake server at `url` (an OpenAI-compatible endpoint). */
export function fakeModelEnv(url: string, apiKey: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    PARLEY_LLM_PROVIDER: 'openai-compatible',
    PARLEY_LLM_BASE_URL: url,
    PARLEY_LLM_MODEL: 'test-model',
    PARLEY_LLM_API_KEY: apiKey,
    ...extra,
  };
}

/** The AI task a structured-output request is for (its JSON schema's name, the LlmTask's name). */
export const taskOf = (request: FakeLlmRequest): string | undefined =>
  (request.body.response_format as { json_schema?: { name: string } } | undefined)?.json_schema?.name;

/** Every message of a chat request, joined: what the model was asked. */
export const promptOf = (request: FakeLlmRequest): string => (request.body.messages as { role: string; content: string }[]).map((m) => m.content).join('\n');
