import { pathToFileURL } from 'node:url';
import { Piscina } from 'piscina';
import type { Logger } from 'pino';
import type { Config } from '../config/config.js';
import { type CpuWork, type CpuWorkKind, runCpuWork } from './cpu-work.js';
import type { CpuOutcome, CpuTask } from './cpu-worker.js';
import { fromWireError } from './errors.js';
import { threadEntryBeside, threadExecArgv } from './threads.js';

export type { BuiltinCall, CpuWork, CpuWorkKind, LinkScan } from './cpu-work.js';
export { threadExecArgv } from './threads.js';

/**
 * Where CPU-bound work runs (extraction, link scanning, the built-in engine): a pool of worker
 * threads, so the event loop keeps answering requests while the embedded job worker is busy.
 */
export interface CpuPool {
  /** Worker threads; 0 when the work runs inline on the event loop. */
  readonly threads: number;
  /**
   * Runs one piece of work. Errors keep their class and message (LlmError, UnsupportedContentError);
   * an aborted signal rejects with its reason, and stops the thread if the work had started.
   */
  run<K extends CpuWorkKind>(kind: K, input: CpuWork[K]['input'], options?: { signal?: AbortSignal }): Promise<CpuWork[K]['output']>;
  /** Stops the threads (work still running is abandoned: shutdown stops the jobs first). */
  close(): Promise<void>;
}

/** A thread idle this long exits; the next piece of work starts one again (about a second). */
const IDLE_TIMEOUT_MS = 10 * 60_000;

/** The same work on the event loop: PARLEY_CPU_THREADS=0, and code that has no pool (the CLI). */
export const inlineCpuPool: CpuPool = Object.freeze({
  threads: 0,
  async run<K extends CpuWorkKind>(kind: K, input: CpuWork[K]['input'], options: { signal?: AbortSignal } = {}) {
    options.signal?.throwIfAborted();
    return await runCpuWork(kind, input);
  },
  close: async () => undefined,
});

/** The worker entry next to this module: cpu-worker.ts under tsx (tests, benches), cpu-worker.js in dist/. */
export function cpuWorkerFile(): string {
  return threadEntryBeside(import.meta.url, 'cpu-worker');
}

/**
 * The pool of a process, PARLEY_CPU_THREADS threads started on first use (0: inline). `entry` is
 * the threads' entry file (cpuWorkerFile(); a test gives one that cannot load).
 */
export function createCpuPool(config: Pick<Config, 'cpuThreads'>, log?: Logger, entry: string = cpuWorkerFile()): CpuPool {
  if (config.cpuThreads === 0) return inlineCpuPool;
  // What a thread that fails outside a task does to the tasks given to the pool: piscina reports it
  // as an 'error' event and leaves them waiting (a thread that cannot start never takes them). So
  // each waiting task is failed with that error, and the pool starts afresh for the next ones.
  const waiting = new Set<(error: Error) => void>();
  const start = (): Piscina<CpuTask, CpuOutcome> => {
    const pool = new Piscina<CpuTask, CpuOutcome>({
      filename: pathToFileURL(entry).href,
      execArgv: threadExecArgv(process.execArgv),
      minThreads: 0,
      maxThreads: config.cpuThreads,
      idleTimeout: IDLE_TIMEOUT_MS,
    });
    pool.on('error', (error: unknown) => {
      log?.error({ err: error, tasks: waiting.size }, 'a CPU pool thread failed; its tasks fail with it');
      const failure = new Error(`a CPU pool thread failed: ${error instanceof Error ? error.message : String(error)}`);
      for (const fail of waiting) fail(failure);
      waiting.clear();
      if (piscina === pool && !closed) {
        piscina = start();
        pool.destroy().catch(() => undefined);
      }
    });
    return pool;
  };
  let piscina = start();
  log?.debug({ threads: config.cpuThreads }, 'CPU pool ready');
  let closed: Promise<void> | undefined;
  return {
    threads: config.cpuThreads,
    async run<K extends CpuWorkKind>(kind: K, input: CpuWork[K]['input'], options: { signal?: AbortSignal } = {}) {
      const { signal } = options;
      signal?.throwIfAborted();
      let fail: (error: Error) => void = () => undefined;
      const threadFailed = new Promise<never>((_, reject) => (fail = reject));
      waiting.add(fail);
      let outcome: CpuOutcome;
      try {
        outcome = await Promise.race([piscina.run({ kind, input }, signal ? { signal } : {}), threadFailed]);
      } catch (error) {
        // piscina's own AbortError becomes the signal's reason, as inline work would throw.
        signal?.throwIfAborted();
        throw error;
      } finally {
        waiting.delete(fail);
      }
      if (!outcome.ok) throw fromWireError(outcome.error);
      return outcome.output as CpuWork[K]['output'];
    },
    close() {
      closed ??= piscina.destroy();
      return closed;
    },
  };
}
