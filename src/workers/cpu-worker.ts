// The entry file of a CPU pool thread (piscina loads it and calls the default export per task).
// Under tsx the thread inherits `--import tsx` and loads this .ts file; from dist/ it loads the .js.
import { type CpuWork, type CpuWorkKind, runCpuWork } from './cpu-work.js';
import { toWireError, type WireError } from './errors.js';

/** One task as posted by pool.ts. */
export interface CpuTask<K extends CpuWorkKind = CpuWorkKind> {
  kind: K;
  input: CpuWork[K]['input'];
}

/** The answer: the output, or the error as data so the main thread can rebuild its class. */
export type CpuOutcome<K extends CpuWorkKind = CpuWorkKind> = { ok: true; output: CpuWork[K]['output'] } | { ok: false; error: WireError };

/** Runs one task; never throws, so every failure reaches the caller with its class and message. */
export default async function runTask(task: CpuTask): Promise<CpuOutcome> {
  try {
    return { ok: true, output: await runCpuWork(task.kind, task.input) };
  } catch (error) {
    return { ok: false, error: toWireError(error) };
  }
}
