import type { Config } from '../config/config.js';
import { createAiSdkProvider } from './ai-sdk.js';
import { type LlmProvider, LlmError, NO_USAGE } from './provider.js';

export { addUsage, type LlmProvider, type LlmResult, LlmError, type LlmTask, NO_USAGE, type TokenUsage } from './provider.js';

/** The built-in engine as a provider: each task's deterministic method, checked by its schema. */
export const builtinProvider: LlmProvider = Object.freeze({
  name: 'builtin' as const,
  model: 'parley-builtin',
  async run(task, input) {
    const parsed = task.schema.safeParse(task.builtin(input));
    if (!parsed.success) {
      throw new LlmError(`the built-in engine's ${task.name} answer is invalid: ${parsed.error.issues[0]?.message ?? 'unknown'}`, false);
    }
    return { output: parsed.data, usage: NO_USAGE };
  },
} satisfies LlmProvider);

/** The `llm` port of a process: the configured provider (docs/ai.md), or the built-in engine. */
export function createLlm(config: Config): LlmProvider {
  return config.llm.provider === 'builtin' ? builtinProvider : createAiSdkProvider(config.llm);
}
