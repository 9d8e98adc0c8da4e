import type { Config } from '../config/config.js';
import { createAiSdkProvider } from './ai-sdk.js';
import { type LlmProvider, LlmError, type LlmTask, NO_USAGE } from './provider.js';
import type { CpuPool } from '../workers/pool.js';
import { BUILTIN_ENCODER_MODEL } from './encoder.js';

export { addUsage, type LlmProvider, type LlmResult, LlmError, type LlmTask, NO_USAGE, type PartialOutput, type RunOptions, type TokenUsage } from './provider.js';

/**
 * The built-in engine as a provider: each task's deterministic method, run in the CPU pool (by the
 * task's name, see src/workers/tasks.ts) and checked by the task's schema here.
 */
export function createBuiltinProvider(pool: CpuPool, options: { encoder?: boolean } = {}): LlmProvider {
  const encoding =
    options.encoder === false
      ? {}
      : {
          encoderModel: BUILTIN_ENCODER_MODEL,
          encode: (texts: string[], opts: { signal?: AbortSignal } = {}) => pool.run('encode', { texts }, opts),
        };
  return Object.freeze({
    name: 'builtin' as const,
    model: 'parley-builtin',
    ...encoding,
    async run<I, O>(task: LlmTask<I, O>, input: I, options: { signal?: AbortSignal } = {}) {
      const answer = await pool.run('builtin', { task: task.name, input }, options);
      const parsed = task.schema.safeParse(answer);
      if (!parsed.success) {
        throw new LlmError(`the built-in engine's ${task.name} answer is invalid: ${parsed.error.issues[0]?.message ?? 'unknown'}`, false);
      }
      return { output: parsed.data, usage: NO_USAGE };
    },
  } satisfies LlmProvider);
}

/**
 * The `llm` port of a process: the configured provider (docs/ai.md), or the built-in engine running
 * in the process's CPU pool.
 */
export function createLlm(config: Config, pool: CpuPool): LlmProvider {
  return config.llm.provider === 'builtin' ? createBuiltinProvider(pool, { encoder: config.llm.builtinEncoder }) : createAiSdkProvider(config.llm);
}
