import { STATUS_CODES } from 'node:http';
import { setTimeout as delay } from 'node:timers/promises';
import { createAnthropic } from '@ai-sdk/anthropic';
import { createOpenAI } from '@ai-sdk/openai';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import {
  APICallError,
  embedMany,
  generateText,
  streamText,
  JSONParseError,
  NoObjectGeneratedError,
  Output,
  TypeValidationError,
  type EmbeddingModel,
  type LanguageModel,
  type LanguageModelUsage,
} from 'ai';
import type { Config } from '../config/config.js';
import { requestedWaitMs } from '../ingest/fetch/retry-after.js';
import { addUsage, LlmError, NO_USAGE, type EmbeddingResult, type LlmProvider, type LlmResult, type LlmTask, type PartialOutput, type RunOptions, type TokenUsage } from './provider.js';

/**
 * The model providers Parley talks to (OpenAI-compatible servers, OpenAI, Anthropic), behind
 * `LlmProvider`, on the Vercel AI SDK. The SDK's own retries are off: this module retries with the
 * policy of `Config['llm']` and turns every failure into an `LlmError` a user can act on.
 */

export interface AiSdkDeps {
  /** Waits between attempts; rejects when `signal` aborts (tests record the waits instead). */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  fetch?: typeof globalThis.fetch;
}

/** The longest wait between two attempts, whatever the server asks for. */
export const MAX_RETRY_WAIT_MS = 60_000;
/** Texts per embeddings request. */
export const EMBEDDING_BATCH_SIZE = 64;

const DEFAULT_BASE_URL = { openai: 'https://api.openai.com/v1', anthropic: 'https://api.anthropic.com/v1' } as const;
const PROVIDER_DETAIL_MAX = 300;
const ANSWER_EXCERPT_MAX = 200;
const SCHEMA_ISSUES_SHOWN = 3;
const NETWORK_ERROR_CODES = new Set([
  'ECONNRESET',
  'ECONNREFUSED',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
  'UND_ERR_SOCKET',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
  'UND_ERR_CLOSED',
]);

interface Models {
  language: LanguageModel;
  embedding?: EmbeddingModel;
}

/** Builds the provider for a configured model; `builtin` is served by the built-in engine instead. */
export function createAiSdkProvider(llm: Config['llm'], deps: AiSdkDeps = {}): LlmProvider {
  const models = createModels(llm, deps.fetch);
  const baseUrl = llm.baseUrl ?? (llm.provider === 'openai' || llm.provider === 'anthropic' ? DEFAULT_BASE_URL[llm.provider] : '');
  const policy: RetryPolicy = {
    maxRetries: llm.maxRetries,
    retryDelayMs: llm.retryDelayMs,
    timeoutMs: llm.timeoutMs,
    sleep: deps.sleep ?? defaultSleep,
    host: hostOf(baseUrl),
    apiKey: llm.apiKey,
  };
  const missingKey = (llm.provider === 'openai' || llm.provider === 'anthropic') && !llm.apiKey && !llm.baseUrl;

  const provider: LlmProvider = {
    name: llm.provider,
    model: llm.model,
    embeddingModel: llm.embeddingModel,
    async run<I, O>(task: LlmTask<I, O>, input: I, options: RunOptions<O> = {}) {
      if (missingKey) throw new LlmError(`model call failed: no API key for ${llm.provider} (set PARLEY_LLM_API_KEY)`, false);
      const prompt = task.prompt(input);
      const { onPartial } = options;
      return withRetries('model call', policy, options.signal, async (signal) => {
        try {
          return onPartial ? await streamOnce(models.language, task, prompt, signal, onPartial) : await generateOnce(models.language, task, prompt, signal);
        } catch (error) {
          throw outputFailure(error, task, policy.apiKey) ?? error;
        }
      });
    },
  };
  const embedding = models.embedding;
  if (embedding) {
    provider.embed = async (texts, options = {}) => {
      if (missingKey) throw new LlmError(`embedding call failed: no API key for ${llm.provider} (set PARLEY_LLM_API_KEY)`, false);
      const result: EmbeddingResult = { embeddings: [], usage: NO_USAGE };
      for (let start = 0; start < texts.length; start += EMBEDDING_BATCH_SIZE) {
        const values = texts.slice(start, start + EMBEDDING_BATCH_SIZE);
        const batch = await withRetries('embedding call', policy, options.signal, async (signal) => {
          const answer = await embedMany({ model: embedding, values, maxRetries: 0, abortSignal: signal });
          if (answer.embeddings.length !== values.length) {
            throw new Failure('call', `${policy.host} returned ${answer.embeddings.length} embeddings for ${values.length} texts`, false);
          }
          return { embeddings: answer.embeddings, tokens: answer.usage.tokens };
        });
        result.embeddings.push(...batch.embeddings);
        result.usage = addUsage(result.usage, { inputTokens: batch.tokens, outputTokens: 0, totalTokens: batch.tokens });
      }
      return result;
    };
  }
  return provider;
}

const outputOf = <I, O>(task: LlmTask<I, O>) => Output.object({ schema: task.schema, name: task.name, description: task.description });

/** One attempt, the whole answer at once. */
async function generateOnce<I, O>(model: LanguageModel, task: LlmTask<I, O>, prompt: string, signal: AbortSignal): Promise<LlmResult<O>> {
  const result = await generateText({ model, system: task.system, prompt, output: outputOf(task), maxRetries: 0, abortSignal: signal });
  const usage = toUsage(result.totalUsage);
  // `output` throws when the model stopped without any answer (e.g. a length or content-filter stop).
  try {
    return { output: result.output, usage };
  } catch {
    throw new Failure('output', `the model returned no answer (finish reason: ${result.finishReason})`, false, usage);
  }
}

/**
 * One attempt, streamed: each partial answer goes to `onPartial` as the model writes it; the
 * complete answer is then parsed and validated by the task's schema as `generateOnce`'s is (the
 * same NoObjectGeneratedError when it is not JSON or not the schema). The SDK reports a failed call
 * through `onError` and ends the stream instead of throwing: the first error is rethrown here.
 */
async function streamOnce<I, O>(model: LanguageModel, task: LlmTask<I, O>, prompt: string, signal: AbortSignal, onPartial: (partial: PartialOutput<O>) => void): Promise<LlmResult<O>> {
  let failed: { error: unknown } | undefined;
  const result = streamText({
    model,
    system: task.system,
    prompt,
    output: outputOf(task),
    maxRetries: 0,
    abortSignal: signal,
    onError: ({ error }) => {
      failed ??= { error };
    },
  });
  for await (const partial of result.partialOutputStream) onPartial(partial as PartialOutput<O>);
  if (failed) throw failed.error;
  const usage = toUsage(await result.totalUsage);
  return { output: await result.output, usage };
}

function createModels(llm: Config['llm'], fetch: typeof globalThis.fetch | undefined): Models {
  switch (llm.provider) {
    case 'openai-compatible': {
      if (!llm.baseUrl) throw new Error('the openai-compatible provider needs a base URL (PARLEY_LLM_BASE_URL)');
      const provider = createOpenAICompatible({
        name: 'parley',
        baseURL: llm.baseUrl,
        apiKey: llm.apiKey,
        supportsStructuredOutputs: true,
        // Streamed answers (RunOptions.onPartial) count their tokens too: the last chunk carries the usage.
        includeUsage: true,
        fetch,
      });
      return {
        language: provider.chatModel(llm.model),
        embedding: llm.embeddingModel ? provider.embeddingModel(llm.embeddingModel) : undefined,
      };
    }
    case 'openai': {
      // Base URL and key are always passed so the SDK never falls back to OPENAI_* variables.
      const provider = createOpenAI({ baseURL: llm.baseUrl ?? DEFAULT_BASE_URL.openai, apiKey: llm.apiKey ?? '', fetch });
      // `provider(model)` is the Responses API in @ai-sdk/openai 3; Chat Completions is what
      // OpenAI-compatible proxies (and the test fake) serve as well.
      return {
        language: provider.chat(llm.model),
        embedding: llm.embeddingModel ? provider.embedding(llm.embeddingModel) : undefined,
      };
    }
    case 'anthropic': {
      const provider = createAnthropic({ baseURL: llm.baseUrl ?? DEFAULT_BASE_URL.anthropic, apiKey: llm.apiKey ?? '', fetch });
      if (llm.embeddingModel) throw new Error('the anthropic provider has no embedding models');
      return { language: provider.messages(llm.model) };
    }
    case 'builtin':
      throw new Error('the builtin provider is the built-in engine, not an AI SDK model');
  }
}

interface RetryPolicy {
  maxRetries: number;
  retryDelayMs: number;
  timeoutMs: number;
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Host of the model server, named in messages. */
  host: string;
  /** Removed from every message. */
  apiKey: string | undefined;
}

/**
 * One attempt's failure, classified: `call` problems (HTTP, network) are reported after
 * "model call failed"; `output` problems (malformed or mismatching answers) stand on their own.
 */
class Failure extends Error {
  constructor(
    readonly kind: 'call' | 'timeout' | 'output',
    readonly detail: string,
    readonly retryable: boolean,
    readonly usage: TokenUsage = NO_USAGE,
    readonly retryAfterMs?: number,
  ) {
    super(detail);
    this.name = 'Failure';
  }
}

/**
 * Runs one call with a timeout per attempt, retrying 429, 408, 5xx, network failures and timeouts
 * up to `maxRetries` times; the caller's signal stops everything at once.
 */
async function withRetries<T>(
  what: 'model call' | 'embedding call',
  policy: RetryPolicy,
  callerSignal: AbortSignal | undefined,
  attempt: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  let spent: TokenUsage = NO_USAGE;
  const aborted = () => new LlmError(`${what} aborted`, false, spent);
  for (let index = 0; ; index += 1) {
    if (callerSignal?.aborted) throw aborted();
    const timeout = AbortSignal.timeout(policy.timeoutMs);
    const signal = callerSignal ? AbortSignal.any([callerSignal, timeout]) : timeout;
    let failure: Failure;
    try {
      return await attempt(signal);
    } catch (error) {
      if (callerSignal?.aborted) throw aborted();
      failure = timeout.aborted ? new Failure('timeout', 'timed out', true) : classify(error, policy);
    }
    spent = addUsage(spent, failure.usage);
    const attempts = index + 1;
    if (!failure.retryable || index >= policy.maxRetries) {
      throw new LlmError(finalMessage(what, failure, attempts, policy.timeoutMs), false, spent, failure.retryable);
    }
    try {
      await policy.sleep(failure.retryAfterMs ?? backoffMs(policy.retryDelayMs, index), callerSignal);
    } catch (error) {
      if (callerSignal?.aborted) throw aborted();
      throw error;
    }
  }
}

function finalMessage(what: string, failure: Failure, attempts: number, timeoutMs: number): string {
  switch (failure.kind) {
    case 'timeout':
      return `${what} timed out after ${timeoutMs} ms${attempts > 1 ? ` (${attempts} attempts)` : ''}`;
    case 'output':
      return failure.detail;
    case 'call':
      break;
  }
  return attempts > 1 ? `${what} failed after ${attempts} attempts: ${failure.detail}` : `${what} failed: ${failure.detail}`;
}

function backoffMs(baseMs: number, attempt: number): number {
  return Math.min(baseMs * 2 ** attempt, MAX_RETRY_WAIT_MS);
}

/** The wait a server asked for (requestedWaitMs), capped at a minute. */
export function retryAfterMs(headers: Record<string, string> | undefined, now = Date.now()): number | undefined {
  const ms = requestedWaitMs(headers, now);
  return ms === undefined ? undefined : Math.min(ms, MAX_RETRY_WAIT_MS);
}

/** Sorts a failed attempt into retryable (429, 408, 5xx, network) and final, with a safe message. */
function classify(error: unknown, policy: RetryPolicy): Failure {
  if (error instanceof Failure) return error;
  if (APICallError.isInstance(error)) {
    const status = error.statusCode;
    if (status === undefined) {
      return new Failure('call', `cannot reach ${policy.host} (${redact(causeMessage(error), policy.apiKey)})`, true);
    }
    const statusText = STATUS_CODES[status] ?? '';
    const said = providerMessage(error, statusText, policy.apiKey);
    if (status < 400) {
      return new Failure('call', `unexpected answer from ${policy.host}: ${said || redact(error.message, policy.apiKey)}`, false);
    }
    const retryable = status === 408 || status === 429 || status >= 500;
    const detail = `HTTP ${status}${statusText ? ` ${statusText}` : ''} from ${policy.host}${said ? ` (${said})` : ''}`;
    return new Failure('call', detail, retryable, NO_USAGE, retryable ? retryAfterMs(error.responseHeaders) : undefined);
  }
  const message = error instanceof Error ? error.message : String(error);
  if (isNetworkError(error)) {
    return new Failure('call', `cannot reach ${policy.host} (${redact(message, policy.apiKey)})`, true);
  }
  return new Failure('call', redact(truncate(message, PROVIDER_DETAIL_MAX), policy.apiKey), false);
}

/** What the provider said about an error: its own message, else the start of the body. */
function providerMessage(error: APICallError, statusText: string, apiKey: string | undefined): string {
  let said = error.message.trim();
  if ((said === '' || said === statusText) && error.responseBody) said = error.responseBody.trim();
  if (said === statusText) said = '';
  return redact(truncate(said.replace(/\s+/g, ' '), PROVIDER_DETAIL_MAX), apiKey);
}

function isNetworkError(error: unknown): boolean {
  for (let current: unknown = error, depth = 0; current instanceof Error && depth < 5; current = current.cause, depth += 1) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && NETWORK_ERROR_CODES.has(code)) return true;
    if (current instanceof TypeError && /fetch failed|failed to fetch/i.test(current.message)) return true;
  }
  return false;
}

function causeMessage(error: Error): string {
  const cause = error.cause;
  return cause instanceof Error ? cause.message : error.message;
}

/** Malformed or mismatching answers: final at once, with the usage the attempt cost. */
function outputFailure<I, O>(error: unknown, task: LlmTask<I, O>, apiKey: string | undefined): Failure | undefined {
  if (!NoObjectGeneratedError.isInstance(error)) return undefined;
  const usage = error.usage ? toUsage(error.usage) : NO_USAGE;
  const text = error.text ?? '';
  if (JSONParseError.isInstance(error.cause) || text.trim() === '') {
    const excerpt = text.trim() === '' ? 'the answer is empty' : JSON.stringify(truncate(text, ANSWER_EXCERPT_MAX));
    return new Failure('output', `the model's answer is not valid JSON: ${excerpt}`, false, usage);
  }
  if (TypeValidationError.isInstance(error.cause)) {
    return new Failure('output', `the model's answer does not match the ${task.name} schema: ${schemaIssues(task, text)}`, false, usage);
  }
  return new Failure('output', `the model gave no usable answer: ${redact(truncate(error.message, PROVIDER_DETAIL_MAX), apiKey)}`, false, usage);
}

function schemaIssues<I, O>(task: LlmTask<I, O>, text: string): string {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return 'unreadable answer';
  }
  const parsed = task.schema.safeParse(value);
  if (parsed.success) return 'rejected by the schema';
  const issues = parsed.error.issues.slice(0, SCHEMA_ISSUES_SHOWN).map((issue) => {
    const path = issue.path.length > 0 ? issue.path.map(String).join('.') : '(root)';
    return `${path}: ${issue.message}`;
  });
  const more = parsed.error.issues.length - issues.length;
  return issues.join('; ') + (more > 0 ? ` (and ${more} more)` : '');
}

function toUsage(usage: LanguageModelUsage): TokenUsage {
  const inputTokens = usage.inputTokens ?? 0;
  const outputTokens = usage.outputTokens ?? 0;
  return { inputTokens, outputTokens, totalTokens: usage.totalTokens ?? inputTokens + outputTokens };
}

function redact(text: string, apiKey: string | undefined): string {
  return apiKey && apiKey.length >= 4 ? text.split(apiKey).join('[redacted]') : text;
}

function truncate(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return 'the model server';
  }
}

const defaultSleep = async (ms: number, signal?: AbortSignal): Promise<void> => {
  await delay(ms, undefined, { signal });
};
