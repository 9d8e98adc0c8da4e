import type { z } from 'zod';
import type { LlmProviderName } from '../config/config.js';

/**
 * The AI layer's one interface (docs/ai.md). A feature describes what it needs as an `LlmTask`:
 * the prompt a model reads, the zod schema its answer must satisfy, and the built-in engine's
 * deterministic method for the same input. A provider runs tasks; every answer, from a model or
 * from the built-in engine, is validated by the task's schema before anyone uses it.
 */
export interface LlmTask<I, O> {
  /** Stable name, used in logs, errors and as the structured output's schema name. */
  readonly name: string;
  /** One sentence: what the answer is (sent to the model with the schema). */
  readonly description: string;
  readonly schema: z.ZodType<O>;
  /** System message: the instructions that do not depend on the input. */
  readonly system: string;
  /** User message for one input. */
  prompt(input: I): string;
  /** The built-in engine's answer: deterministic, offline, derived from the input alone. */
  builtin(input: I): O;
}

/** Tokens one call (or a job's calls, summed) consumed; zero for the built-in engine. */
export interface TokenUsage {
  inputTokens: number;
  outputTokens: number;
  totalTokens: number;
}

export const NO_USAGE: TokenUsage = Object.freeze({ inputTokens: 0, outputTokens: 0, totalTokens: 0 });

export function addUsage(a: TokenUsage, b: TokenUsage): TokenUsage {
  return {
    inputTokens: a.inputTokens + b.inputTokens,
    outputTokens: a.outputTokens + b.outputTokens,
    totalTokens: a.totalTokens + b.totalTokens,
  };
}

export interface LlmResult<O> {
  output: O;
  usage: TokenUsage;
}

/**
 * A task's answer while a model is still writing it: the fields so far, parsed from incomplete
 * JSON (the last string cut short, later fields missing). Not validated by the task's schema:
 * check a field's type before using it.
 */
export type PartialOutput<O> = O extends readonly (infer E)[] ? PartialOutput<E>[] : O extends object ? { [K in keyof O]?: PartialOutput<O[K]> } : O;

export interface RunOptions<O> {
  signal?: AbortSignal;
  /**
   * Asks for the answer as it is written: the AI SDK path then streams the model's output and calls
   * this with each new partial answer (from the start again when an attempt is retried). The
   * built-in engine answers at once and never calls it. The result is the validated answer either way.
   */
  onPartial?: (partial: PartialOutput<O>) => void;
}

export interface EmbeddingResult {
  /** One vector per input text, in order, all of `dimensions` numbers. */
  embeddings: number[][];
  usage: TokenUsage;
}

export interface LlmProvider {
  readonly name: LlmProviderName;
  /** Model id (`parley-builtin` for the built-in engine). */
  readonly model: string;
  /** The embedding model, when one is configured; `embed` exists exactly then. */
  readonly embeddingModel?: string;
  run<I, O>(task: LlmTask<I, O>, input: I, options?: RunOptions<O>): Promise<LlmResult<O>>;
  embed?(texts: string[], options?: { signal?: AbortSignal }): Promise<EmbeddingResult>;
  /**
   * The built-in engine's sentence encoder (ai/encoder.ts): one unit vector per text, in
   * order, for the answer's semantic signal. Only the built-in engine has it, and only with
   * PARLEY_BUILTIN_ENCODER on; it rejects when the encoder cannot load.
   */
  readonly encoderModel?: string;
  encode?(texts: string[], options?: { signal?: AbortSignal }): Promise<Float32Array[]>;
}

/**
 * Why a model call failed, in words fit for a job's `error`. `retryable` is false once the
 * provider's own retries are spent, and for answers that will not get better (bad request, bad
 * key, output that does not satisfy the schema).
 */
export class LlmError extends Error {
  constructor(
    message: string,
    readonly retryable: boolean,
    readonly usage: TokenUsage = NO_USAGE,
    /** The failure was of a passing kind (429, 5xx, network, timeout): a later try may succeed. */
    readonly transient = false,
  ) {
    super(message);
    this.name = 'LlmError';
  }
}
