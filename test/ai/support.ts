// Shared by the AI SDK provider's tests: a small task, the fake model server of a suite and the
// provider settings that point at it.
import assert from 'node:assert/strict';
import { after, before, beforeEach } from 'node:test';
import { z } from 'zod';
import { createAiSdkProvider } from '../../src/ai/ai-sdk.js';
import { LlmError, type LlmTask } from '../../src/ai/provider.js';
import type { Config } from '../../src/config/config.js';
import { startFakeLlm, type FakeLlm } from '../support/fake-llm.js';

export const answerSchema = z.object({ answer: z.string(), score: z.number().int() });
export type TestAnswer = z.infer<typeof answerSchema>;
export const task: LlmTask<string, TestAnswer> = {
  name: 'test_answer',
  description: 'A short answer with a score.',
  schema: answerSchema,
  system: 'You are a test.',
  prompt: (question) => `Question: ${question}`,
  builtin: () => ({ answer: 'builtin', score: 0 }),
};

/** The LlmError a call rejects with (fails the test when it resolves or rejects otherwise). */
export async function llmError(promise: Promise<unknown>): Promise<LlmError> {
  const error = await promise.then(
    () => assert.fail('expected an LlmError'),
    (e: unknown) => e,
  );
  assert.ok(error instanceof LlmError, `not an LlmError: ${String(error)}`);
  return error;
}

export interface FakeModelFixture {
  /** The suite's fake model server (started before its first test, reset before each). */
  readonly fake: FakeLlm;
  /** The waits between attempts of the providers made by `provider`, this test's. */
  readonly waits: number[];
  /** Settings of an openai-compatible model on the fake server (3 retries, 100 ms base delay). */
  settings(overrides?: Partial<Config['llm']>): Config['llm'];
  /** A provider with `settings`, recording its waits instead of waiting. */
  provider(overrides?: Partial<Config['llm']>): ReturnType<typeof createAiSdkProvider>;
}

/** Registers the hooks of a suite that talks to the fake model server; call inside `describe`. */
export function fakeModelFixture(apiKey: string): FakeModelFixture {
  let server: FakeLlm | undefined;
  const waits: number[] = [];
  const fixture: FakeModelFixture = {
    get fake() {
      if (!server) throw new Error('the fake model server starts before the first test');
      return server;
    },
    waits,
    settings: (overrides = {}) => ({
      provider: 'openai-compatible',
      baseUrl: fixture.fake.url,
      model: 'test-model',
      apiKey,
      embeddingModel: undefined,
      builtinEncoder: false,
      timeoutMs: 10_000,
      maxRetries: 3,
      retryDelayMs: 100,
      ...overrides,
    }),
    provider: (overrides = {}) =>
      createAiSdkProvider(fixture.settings(overrides), {
        sleep: async (ms) => {
          waits.push(ms);
        },
      }),
  };
  before(async () => {
    server = await startFakeLlm();
  });
  beforeEach(() => {
    server?.reset();
    waits.length = 0;
  });
  after(() => server?.close());
  return fixture;
}
