import { addUsage, LlmError, type LlmTask, NO_USAGE, type RunOptions, type TokenUsage } from '../../../ai/index.js';
import type { WorkspaceContext } from '../../../context.js';

/** A stage ran out of its time budget (PARLEY_ANSWER_STAGE_TIMEOUT_MS). */
export class StageTimeout extends Error {}

export const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** The budget of one stage: PARLEY_ANSWER_STAGE_TIMEOUT_MS, and the request's own signal. */
export function stageSignal(ctx: WorkspaceContext): AbortSignal {
  const timeout = AbortSignal.timeout(ctx.config.answerStageTimeoutMs);
  return ctx.signal ? AbortSignal.any([ctx.signal, timeout]) : timeout;
}

/**
 * What the stages of one answer record as they run: each stage's time, the errors the agent
 * degraded past, and the tokens of every model call.
 */
export class StageTrace {
  readonly timings: Record<string, number> = {};
  readonly errors: { stage: string; message: string }[] = [];
  usage: TokenUsage = NO_USAGE;
  private readonly started = performance.now();

  constructor(private readonly ctx: WorkspaceContext) {}

  /** Runs a stage and records its time under `stage`. */
  async time<T>(stage: string, fn: () => Promise<T>): Promise<T> {
    const t = performance.now();
    try {
      return await fn();
    } finally {
      this.timings[stage] = Math.round((performance.now() - t) * 100) / 100;
    }
  }

  total(): number {
    return Math.round((performance.now() - this.started) * 100) / 100;
  }

  error(stage: string, error: unknown): void {
    this.errors.push({ stage, message: errorText(error) });
  }

  addUsage(usage: TokenUsage): void {
    this.usage = addUsage(this.usage, usage);
  }

  /** Runs a model task within the stage budget, counting its tokens; `onPartial` as `RunOptions`'. */
  async run<I, O>(task: LlmTask<I, O>, input: I, options: Pick<RunOptions<O>, 'onPartial'> = {}): Promise<O> {
    const signal = stageSignal(this.ctx);
    try {
      const { output, usage } = await this.ctx.llm.run(task, input, { signal, ...options });
      this.addUsage(usage);
      return output;
    } catch (error) {
      if (error instanceof LlmError) this.addUsage(error.usage);
      if (signal.aborted && !this.ctx.signal?.aborted) throw new StageTimeout(`${task.name} took longer than ${this.ctx.config.answerStageTimeoutMs} ms`);
      throw error;
    }
  }
}
