import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, it } from 'node:test';
import { createAiSdkProvider, retryAfterMs } from '../../src/ai/ai-sdk.js';
import { fakeEmbedding, type FakeLlmRequest } from '../support/fake-llm.js';
import { fakeModelFixture, llmError, task } from './support.js';

const KEY = 'sk-test-4f9c2a7e-secret';

/** The JSON schema the AI SDK derives from `answerSchema` (zod 4, draft-07, input side). */
const ANSWER_JSON_SCHEMA = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  type: 'object',
  properties: {
    answer: { type: 'string' },
    score: { type: 'integer', minimum: Number.MIN_SAFE_INTEGER, maximum: Number.MAX_SAFE_INTEGER },
  },
  required: ['answer', 'score'],
  additionalProperties: false,
};

const USAGE = { inputTokens: 11, outputTokens: 7 };
const TOTAL_USAGE = { inputTokens: 11, outputTokens: 7, totalTokens: 18 };

interface ChatBody {
  model: string;
  messages: unknown[];
  response_format: unknown;
}
interface MessagesBody {
  model: string;
  max_tokens: number;
  system: unknown;
  messages: unknown[];
  output_config?: unknown;
  tools?: unknown;
  tool_choice?: unknown;
}
interface EmbeddingsBody {
  model: string;
  input: string[];
}

describe('AI SDK provider', () => {
  const m = fakeModelFixture(KEY);
  const { settings, provider, waits } = m;
  const host = () => new URL(m.fake.url).host;
  const only = (): FakeLlmRequest => {
    assert.equal(m.fake.requests.length, 1);
    return m.fake.requests[0] as FakeLlmRequest;
  };

  describe('structured output', () => {
    it('openai-compatible: sends system, prompt and the JSON schema, and returns the parsed answer with usage', async () => {
      m.fake.enqueue({ json: { answer: 'yes', score: 3 }, usage: USAGE });
      const result = await provider().run(task, 'is it on?');
      assert.deepEqual(result, { output: { answer: 'yes', score: 3 }, usage: TOTAL_USAGE });

      const request = only();
      assert.equal(request.method, 'POST');
      assert.equal(request.path, '/v1/chat/completions');
      assert.equal(request.headers.authorization, `Bearer ${KEY}`);
      const body = request.body as unknown as ChatBody;
      assert.equal(body.model, 'test-model');
      assert.deepEqual(body.messages, [
        { role: 'system', content: 'You are a test.' },
        { role: 'user', content: 'Question: is it on?' },
      ]);
      assert.deepEqual(body.response_format, {
        type: 'json_schema',
        json_schema: { schema: ANSWER_JSON_SCHEMA, strict: true, name: 'test_answer', description: 'A short answer with a score.' },
      });
    });

    it('openai: uses Chat Completions with the same request shape', async () => {
      m.fake.enqueue({ json: { answer: 'no', score: -1 }, usage: USAGE });
      const p = provider({ provider: 'openai', model: 'gpt-4o-mini' });
      assert.deepEqual(await p.run(task, 'is it off?'), { output: { answer: 'no', score: -1 }, usage: TOTAL_USAGE });

      const request = only();
      assert.equal(request.path, '/v1/chat/completions');
      assert.equal(request.headers.authorization, `Bearer ${KEY}`);
      const body = request.body as unknown as ChatBody;
      assert.equal(body.model, 'gpt-4o-mini');
      assert.deepEqual(body.messages, [
        { role: 'system', content: 'You are a test.' },
        { role: 'user', content: 'Question: is it off?' },
      ]);
      assert.deepEqual(body.response_format, {
        type: 'json_schema',
        json_schema: { schema: ANSWER_JSON_SCHEMA, strict: true, name: 'test_answer', description: 'A short answer with a score.' },
      });
    });

    it('anthropic (structured-output model): carries the schema in output_config.format', async () => {
      m.fake.enqueue({ json: { answer: 'yes', score: 5 }, usage: USAGE });
      const p = provider({ provider: 'anthropic', model: 'claude-sonnet-4-5' });
      assert.deepEqual(await p.run(task, 'why?'), { output: { answer: 'yes', score: 5 }, usage: TOTAL_USAGE });

      const request = only();
      assert.equal(request.path, '/v1/messages');
      assert.equal(request.headers['x-api-key'], KEY);
      assert.equal(request.headers['anthropic-version'], '2023-06-01');
      assert.equal(request.headers.authorization, undefined);
      const body = request.body as unknown as MessagesBody;
      assert.equal(body.model, 'claude-sonnet-4-5');
      assert.deepEqual(body.system, [{ type: 'text', text: 'You are a test.' }]);
      assert.deepEqual(body.messages, [{ role: 'user', content: [{ type: 'text', text: 'Question: why?' }] }]);
      assert.deepEqual(body.output_config, {
        format: {
          type: 'json_schema',
          schema: {
            $schema: 'http://json-schema.org/draft-07/schema#',
            type: 'object',
            properties: {
              answer: { type: 'string' },
              score: { type: 'integer', description: `minimum: ${Number.MIN_SAFE_INTEGER}; maximum: ${Number.MAX_SAFE_INTEGER}.` },
            },
            additionalProperties: false,
            required: ['answer', 'score'],
          },
        },
      });
      assert.equal(body.tools, undefined);
    });

    it('anthropic (older model): forces the json tool and reads its input', async () => {
      m.fake.enqueue({ json: { answer: 'tool', score: 1 }, usage: USAGE });
      const p = provider({ provider: 'anthropic', model: 'claude-3-haiku-20240307' });
      assert.deepEqual(await p.run(task, 'how?'), { output: { answer: 'tool', score: 1 }, usage: TOTAL_USAGE });

      const body = only().body as unknown as MessagesBody;
      assert.equal(body.model, 'claude-3-haiku-20240307');
      assert.deepEqual(body.system, [{ type: 'text', text: 'You are a test.' }]);
      assert.deepEqual(body.messages, [{ role: 'user', content: [{ type: 'text', text: 'Question: how?' }] }]);
      assert.deepEqual(body.tools, [{ name: 'json', description: 'Respond with a JSON object.', input_schema: ANSWER_JSON_SCHEMA }]);
      assert.deepEqual(body.tool_choice, { type: 'any', disable_parallel_tool_use: true });
      assert.equal(body.output_config, undefined);
    });
  });

  describe('retries', () => {
    it('honours retry-after-ms on a 429, then succeeds', async () => {
      m.fake.enqueue(
        { status: 429, headers: { 'retry-after-ms': '1500' }, body: { error: { message: 'Rate limit reached', type: 'requests', code: 'rate_limit_exceeded' } } },
        { json: { answer: 'later', score: 2 }, usage: USAGE },
      );
      const result = await provider().run(task, 'q');
      assert.deepEqual(result, { output: { answer: 'later', score: 2 }, usage: TOTAL_USAGE });
      assert.equal(m.fake.requests.length, 2);
      assert.deepEqual(waits, [1500]);
    });

    it('honours Retry-After in seconds', async () => {
      m.fake.enqueue({ status: 503, headers: { 'retry-after': '2' } }, { json: { answer: 'ok', score: 0 } });
      await provider().run(task, 'q');
      assert.deepEqual(waits, [2000]);
    });

    it('retries 503 three times with doubling waits, then succeeds', async () => {
      m.fake.enqueue({ status: 503 }, { status: 503 }, { status: 503 }, { json: { answer: 'finally', score: 9 }, usage: USAGE });
      const result = await provider().run(task, 'q');
      assert.deepEqual(result, { output: { answer: 'finally', score: 9 }, usage: TOTAL_USAGE });
      assert.equal(m.fake.requests.length, 4);
      assert.deepEqual(waits, [100, 200, 400]);
    });

    it('gives up after maxRetries with the attempt count and retryable false', async () => {
      m.fake.setHandler(() => ({ status: 500, body: { error: { message: 'The server had an error processing your request.', type: 'server_error', code: null } } }));
      const error = await llmError(provider().run(task, 'q'));
      assert.equal(
        error.message,
        `model call failed after 4 attempts: HTTP 500 Internal Server Error from ${host()} (The server had an error processing your request.)`,
      );
      assert.equal(error.retryable, false);
      assert.equal(m.fake.requests.length, 4);
      assert.deepEqual(waits, [100, 200, 400]);
    });

    it('does not retry a 401 and never shows the API key', async () => {
      m.fake.enqueue({
        status: 401,
        body: { error: { message: `Incorrect API key provided: ${KEY}.`, type: 'invalid_request_error', code: 'invalid_api_key' } },
      });
      const error = await llmError(provider().run(task, 'q'));
      assert.equal(error.message, `model call failed: HTTP 401 Unauthorized from ${host()} (Incorrect API key provided: [redacted].)`);
      assert.ok(!error.message.includes(KEY));
      assert.equal(error.retryable, false);
      assert.equal(m.fake.requests.length, 1);
      assert.deepEqual(waits, []);
    });

    it('reports an Anthropic error body by its message', async () => {
      m.fake.enqueue({ status: 400, body: { type: 'error', error: { type: 'invalid_request_error', message: 'max_tokens: too large' } } });
      const error = await llmError(provider({ provider: 'anthropic', model: 'claude-sonnet-4-5' }).run(task, 'q'));
      assert.equal(error.message, `model call failed: HTTP 400 Bad Request from ${host()} (max_tokens: too large)`);
      assert.equal(m.fake.requests.length, 1);
    });

    it('quotes the start of a body that is not a provider error (a proxy page), cut at 300 characters', async () => {
      m.fake.enqueue({ status: 502, body: `<html><body>${'x'.repeat(400)}</body></html>` });
      const error = await llmError(provider({ maxRetries: 0 }).run(task, 'q'));
      assert.equal(error.message, `model call failed: HTTP 502 Bad Gateway from ${host()} (<html><body>${'x'.repeat(287)}…)`);
      assert.equal(m.fake.requests.length, 1);
    });

    it('times out each attempt, retries, then reports the timeout', async () => {
      m.fake.setHandler(() => ({ json: { answer: 'too late', score: 0 }, delayMs: 5000 }));
      const error = await llmError(provider({ timeoutMs: 100, maxRetries: 1 }).run(task, 'q'));
      assert.equal(error.message, 'model call timed out after 100 ms (2 attempts)');
      assert.equal(error.retryable, false);
      assert.equal(m.fake.requests.length, 2);
      assert.deepEqual(waits, [100]);
    });

    it('retries when the server cannot be reached', async () => {
      const closed = createServer();
      await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
      const port = (closed.address() as AddressInfo).port;
      await new Promise<void>((resolve) => closed.close(() => resolve()));
      const error = await llmError(provider({ baseUrl: `http://127.0.0.1:${port}/v1`, maxRetries: 1 }).run(task, 'q'));
      assert.match(error.message, new RegExp(`^model call failed after 2 attempts: cannot reach 127\\.0\\.0\\.1:${port} \\(.*ECONNREFUSED.*\\)$`));
      assert.equal(error.retryable, false);
      assert.deepEqual(waits, [100]);
    });

    it('reads retry-after-ms, Retry-After seconds and dates, capped at a minute', () => {
      const now = Date.parse('2026-03-03T10:00:00Z');
      assert.equal(retryAfterMs({ 'retry-after-ms': '250.5', 'retry-after': '9' }, now), 251);
      assert.equal(retryAfterMs({ 'retry-after': '1.5' }, now), 1500);
      assert.equal(retryAfterMs({ 'retry-after': 'Tue, 03 Mar 2026 10:00:30 GMT' }, now), 30_000);
      assert.equal(retryAfterMs({ 'retry-after': 'Tue, 03 Mar 2026 09:59:00 GMT' }, now), 0);
      assert.equal(retryAfterMs({ 'retry-after': '3600' }, now), 60_000);
      assert.equal(retryAfterMs({ 'retry-after': 'soon' }, now), undefined);
      assert.equal(retryAfterMs({}, now), undefined);
    });
  });

  describe('malformed answers', () => {
    it('rejects an answer that is not JSON after one request, keeping its usage', async () => {
      m.fake.enqueue({ text: 'Sure! The answer is yes.', usage: USAGE });
      const error = await llmError(provider().run(task, 'q'));
      assert.equal(error.message, `the model's answer is not valid JSON: "Sure! The answer is yes."`);
      assert.equal(error.retryable, false);
      assert.deepEqual(error.usage, TOTAL_USAGE);
      assert.equal(m.fake.requests.length, 1);
    });

    it('names the missing field', async () => {
      m.fake.enqueue({ json: { answer: 'yes' }, usage: USAGE });
      const error = await llmError(provider().run(task, 'q'));
      assert.equal(error.message, "the model's answer does not match the test_answer schema: score: Invalid input: expected number, received undefined");
      assert.equal(error.retryable, false);
      assert.deepEqual(error.usage, TOTAL_USAGE);
      assert.equal(m.fake.requests.length, 1);
    });

    it('names every field of the wrong type', async () => {
      m.fake.enqueue({ json: { answer: 42, score: 'high' }, usage: USAGE });
      const error = await llmError(provider({ provider: 'anthropic', model: 'claude-sonnet-4-5' }).run(task, 'q'));
      assert.equal(
        error.message,
        "the model's answer does not match the test_answer schema: answer: Invalid input: expected string, received number; score: Invalid input: expected number, received string",
      );
      assert.deepEqual(error.usage, TOTAL_USAGE);
      assert.equal(m.fake.requests.length, 1);
    });
  });

  describe('abort', () => {
    it('stops a call in flight when the caller aborts', { timeout: 5000 }, async () => {
      const controller = new AbortController();
      m.fake.setHandler(() => {
        controller.abort();
        return { json: { answer: 'never', score: 0 }, delayMs: 5000 };
      });
      const error = await llmError(provider({ timeoutMs: 60_000 }).run(task, 'q', { signal: controller.signal }));
      assert.equal(error.message, 'model call aborted');
      assert.equal(error.retryable, false);
      assert.equal(m.fake.requests.length, 1);
      assert.deepEqual(waits, []);
    });

    it('stops waiting between attempts when the caller aborts', { timeout: 5000 }, async () => {
      const controller = new AbortController();
      m.fake.enqueue({ status: 503 });
      const abortingSleep = (_ms: number, signal?: AbortSignal) =>
        new Promise<void>((_resolve, reject) => {
          signal?.addEventListener('abort', () => reject(signal.reason as Error));
          controller.abort();
        });
      const p = createAiSdkProvider(settings(), { sleep: abortingSleep });
      const error = await llmError(p.run(task, 'q', { signal: controller.signal }));
      assert.equal(error.message, 'model call aborted');
      assert.equal(m.fake.requests.length, 1);
    });

    it('makes no request when the signal is already aborted', async () => {
      const error = await llmError(provider().run(task, 'q', { signal: AbortSignal.abort() }));
      assert.equal(error.message, 'model call aborted');
      assert.equal(m.fake.requests.length, 0);
    });
  });

  describe('embeddings', () => {
    const texts = Array.from({ length: 130 }, (_, i) => `text number ${i}`);

    it('batches 64 texts a request, keeps the order and sums the usage', async () => {
      m.fake.enqueue(
        { embeddings: texts.slice(0, 64).map((_, i) => [i, 0]), usage: { inputTokens: 100 } },
        { embeddings: texts.slice(64, 128).map((_, i) => [64 + i, 1]), usage: { inputTokens: 90 } },
        { embeddings: [[128, 2], [129, 2]], usage: { inputTokens: 5 } },
      );
      const p = provider({ embeddingModel: 'embed-small' });
      const result = await p.embed?.(texts);
      assert.ok(result);
      assert.deepEqual(
        result.embeddings,
        texts.map((_, i) => [i, i < 64 ? 0 : i < 128 ? 1 : 2]),
      );
      assert.deepEqual(result.usage, { inputTokens: 195, outputTokens: 0, totalTokens: 195 });
      assert.deepEqual(
        m.fake.requests.map((r) => [r.path, (r.body as unknown as EmbeddingsBody).model, (r.body as unknown as EmbeddingsBody).input]),
        [
          ['/v1/embeddings', 'embed-small', texts.slice(0, 64)],
          ['/v1/embeddings', 'embed-small', texts.slice(64, 128)],
          ['/v1/embeddings', 'embed-small', texts.slice(128)],
        ],
      );
      assert.equal(m.fake.requests[0]?.headers.authorization, `Bearer ${KEY}`);
    });

    it('answers with deterministic default vectors (openai provider), retrying a 429', async () => {
      m.fake.enqueue({ status: 429, headers: { 'retry-after-ms': '10' } });
      const p = provider({ provider: 'openai', model: 'gpt-4o-mini', embeddingModel: 'text-embedding-3-small' });
      const result = await p.embed?.(['refund policy', 'shipping times']);
      assert.deepEqual(result?.embeddings, [fakeEmbedding('refund policy'), fakeEmbedding('shipping times')]);
      assert.equal(result?.embeddings[0]?.length, 8);
      assert.deepEqual(result?.usage, { inputTokens: 8, outputTokens: 0, totalTokens: 8 });
      assert.equal(m.fake.requests.length, 2);
      assert.deepEqual(waits, [10]);
    });

    it('refuses an answer with fewer vectors than texts', async () => {
      m.fake.enqueue({ embeddings: [[1, 0]] });
      const error = await llmError(provider({ embeddingModel: 'embed-small' }).embed?.(['one', 'two']) ?? Promise.resolve());
      assert.equal(error.message, `embedding call failed: ${host()} returned 1 embeddings for 2 texts`);
      assert.equal(m.fake.requests.length, 1);
    });

    it('has no embed without an embedding model', () => {
      const p = provider();
      assert.equal(p.embed, undefined);
      assert.equal(p.embeddingModel, undefined);
      assert.deepEqual([p.name, p.model], ['openai-compatible', 'test-model']);
      assert.equal(provider({ embeddingModel: 'embed-small' }).embeddingModel, 'embed-small');
    });
  });

  describe('configuration', () => {
    it('refuses the builtin provider', () => {
      assert.throws(() => provider({ provider: 'builtin', model: 'parley-builtin' }), /built-in engine/);
    });

    it('asks for an API key before calling OpenAI without one', async () => {
      const error = await llmError(provider({ provider: 'openai', baseUrl: undefined, apiKey: undefined }).run(task, 'q'));
      assert.equal(error.message, 'model call failed: no API key for openai (set PARLEY_LLM_API_KEY)');
      assert.equal(m.fake.requests.length, 0);
    });
  });
});
