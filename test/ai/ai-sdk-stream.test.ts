// The AI SDK provider's streamed answers (RunOptions.onPartial) against the fake OpenAI-compatible
// server streaming `text/event-stream` chunks: the partial answers as they grow, the final answer
// validated by the task's schema as a plain call's is, usage, retries, timeouts and aborts.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { PartialOutput } from '../../src/ai/provider.js';
import type { Config } from '../../src/config/config.js';
import { fakeModelFixture, llmError, type TestAnswer, task } from './support.js';

const ANSWER = 'Open Settings, then Security, and choose "Reset password".';
const USAGE = { inputTokens: 11, outputTokens: 7 };
const TOTAL_USAGE = { inputTokens: 11, outputTokens: 7, totalTokens: 18 };

describe('AI SDK provider: streamed answers', () => {
  const m = fakeModelFixture('sk-test-stream');
  const { provider, waits } = m;
  /** Runs the task asking for partial answers; answers the result and the partials seen. */
  const streamed = async (overrides: Partial<Config['llm']> = {}, signal?: AbortSignal) => {
    const partials: PartialOutput<TestAnswer>[] = [];
    const result = await provider(overrides).run(task, 'how do I reset it?', { signal, onPartial: (p) => partials.push(structuredClone(p)) });
    return { result, partials };
  };

  it('passes each growing partial answer, then returns the validated answer with its usage', async () => {
    m.fake.enqueue({ json: { answer: ANSWER, score: 3 }, usage: USAGE, chunkSize: 8 });
    const { result, partials } = await streamed();
    assert.deepEqual(result, { output: { answer: ANSWER, score: 3 }, usage: TOTAL_USAGE });
    const texts = partials.map((p) => p.answer).filter((a): a is string => typeof a === 'string');
    // 8 characters a chunk: the answer arrives in many pieces, each partial a prefix of it, never shorter.
    assert.ok(new Set(texts).size >= 5, `partials: ${JSON.stringify(texts)}`);
    for (const [i, text] of texts.entries()) {
      assert.ok(ANSWER.startsWith(text), `${JSON.stringify(text)} is not a prefix of the answer`);
      if (i > 0) assert.ok(text.length >= (texts[i - 1] ?? '').length);
    }
    assert.equal(texts.at(-1), ANSWER);
    assert.deepEqual(partials.at(-1), { answer: ANSWER, score: 3 });
    const body = m.fake.requests[0]!.body;
    assert.equal(body.stream, true);
    assert.deepEqual(body.stream_options, { include_usage: true });
    assert.equal((body.response_format as { json_schema: { name: string } }).json_schema.name, 'test_answer');
  });

  it('does not stream without onPartial', async () => {
    m.fake.enqueue({ json: { answer: ANSWER, score: 3 }, usage: USAGE });
    const result = await provider().run(task, 'q');
    assert.deepEqual(result.output, { answer: ANSWER, score: 3 });
    assert.equal(m.fake.requests[0]!.body.stream, undefined);
  });

  it('retries a 429 before the stream and streams the next attempt', async () => {
    m.fake.enqueue({ status: 429, headers: { 'retry-after-ms': '20' } }, { json: { answer: ANSWER, score: 1 }, usage: USAGE });
    const { result, partials } = await streamed();
    assert.deepEqual(result.output, { answer: ANSWER, score: 1 });
    assert.deepEqual(waits, [20]);
    assert.equal(m.fake.requests.length, 2);
    assert.ok(partials.length >= 2);
  });

  it('refuses a streamed answer that does not match the schema as a plain one, keeping its usage', async () => {
    m.fake.enqueue({ json: { answer: ANSWER }, usage: USAGE });
    const error = await llmError(streamed());
    assert.equal(error.message, "the model's answer does not match the test_answer schema: score: Invalid input: expected number, received undefined");
    assert.equal(error.retryable, false);
    assert.deepEqual(error.usage, TOTAL_USAGE);
    assert.equal(m.fake.requests.length, 1);
  });

  it('refuses a streamed answer that is not JSON', async () => {
    m.fake.enqueue({ text: 'Sure! The answer is yes.', usage: USAGE });
    const error = await llmError(streamed());
    assert.equal(error.message, `the model's answer is not valid JSON: "Sure! The answer is yes."`);
    assert.deepEqual(error.usage, TOTAL_USAGE);
  });

  it('times out an attempt whose stream stalls, retries, then reports the timeout', async () => {
    m.fake.setHandler(() => ({ json: { answer: ANSWER, score: 0 }, chunkDelayMs: 5000 }));
    const error = await llmError(streamed({ timeoutMs: 100, maxRetries: 1 }));
    assert.equal(error.message, 'model call timed out after 100 ms (2 attempts)');
    assert.equal(m.fake.requests.length, 2);
    assert.deepEqual(waits, [100]);
  });

  it('stops a stream in flight when the caller aborts', { timeout: 5000 }, async () => {
    const controller = new AbortController();
    m.fake.setHandler(() => {
      setTimeout(() => controller.abort(), 50);
      return { json: { answer: ANSWER, score: 0 }, chunkDelayMs: 5000 };
    });
    const error = await llmError(streamed({ timeoutMs: 60_000 }, controller.signal));
    assert.equal(error.message, 'model call aborted');
    assert.equal(m.fake.requests.length, 1);
  });
});
