import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import type { QueryOptions, Results, Transaction } from '@electric-sql/pglite';
import type { Logger } from 'pino';
import { threadBootstrap, threadEntryBeside, threadExecArgv } from '../workers/threads.js';
import { DatabaseUnavailableError } from './database-unavailable.js';
import type { PgliteCall, PgliteReply, PgliteThreadData, WireError } from './pglite-worker.js';
import { Turns } from './turns.js';

/** A statement's error from the thread, with its fields (`code`, `detail`, `constraint`...). */
function fromWire(error: WireError): Error {
  const { message, name, stack, ...fields } = error;
  const rebuilt = Object.assign(new Error(message), fields);
  rebuilt.name = name;
  if (stack) rebuilt.stack = stack;
  return rebuilt;
}

export interface PgliteThreadOptions {
  /** PGlite's folder; without it the database lives in the thread's memory. */
  dataDir?: string;
  /** A dump to start a new database from (tests): in memory, or into an empty folder. */
  loadDataDir?: Blob;
  /** Load pgvector (db/vector.ts): ~0.1-0.35 s more at start, so only when an embedding model is configured. */
  vector?: boolean;
  /** Where the thread reports a crash and its restart. */
  log?: Logger;
  /** How long a statement waits for a restarting thread before failing with 503 (default 10 s). */
  restartWaitMs?: number;
  /** The waits before successive restarts, the last one repeated (default RESTART_BACKOFF_MS). */
  restartBackoffMs?: number[];
}

/** Compiled once per process: each thread instantiates the same module instead of compiling its own. */
let wasmModule: Promise<object> | undefined;

/** WebAssembly as Node has it (the project's type libraries do not declare it). */
const wasm = (globalThis as unknown as { WebAssembly: { compile(bytes: Uint8Array): Promise<object> } }).WebAssembly;

function pgliteWasm(): Promise<object> {
  wasmModule ??= (async () => {
    const entry = createRequire(import.meta.url).resolve('@electric-sql/pglite');
    return await wasm.compile(await readFile(path.join(path.dirname(entry), 'pglite.wasm')));
  })();
  return wasmModule;
}

interface Pending {
  resolve(value: unknown): void;
  reject(error: Error): void;
}

/** One started thread: its worker, the statements it owes an answer, whether it still runs. */
interface Thread {
  worker: Worker;
  pending: Map<number, Pending>;
  alive: boolean;
  /** Set once its database is open: statements then go straight to it. */
  open: boolean;
  ready: Promise<void>;
}

const RESTART_BACKOFF_MS = [0, 250, 1000, 5000];

/**
 * PGlite in a worker thread of its own (db/pglite-worker.ts), with the interface of a PGlite that
 * drizzle, its migrator and pg-boss use: query, exec, transaction, dumpDataDir, close. Every
 * statement is posted to the thread and its rows come back as structured clones, so the API's event
 * loop never runs a query, however long.
 *
 * As in PGlite, a transaction has the one session to itself: statements outside it wait for it
 * (a first-come lock taken on this side, so the thread only ever sees one caller's statements between
 * BEGIN and COMMIT).
 *
 * When the thread dies (a WebAssembly abort, an exit), every statement it owed fails with
 * DatabaseUnavailableError, an open transaction with it (its later statements are never sent to the
 * new session, so nothing of it commits half), and a thread on a folder starts again on the same
 * folder, where Postgres recovers what was committed from its write-ahead log; statements sent
 * meanwhile wait for it. Listeners of `onLeaderChange` (pg-boss re-applies its session settings
 * there, as for PGlite's own multi-tab worker) hear of each new session.
 */
export class PgliteThread {
  private thread!: Thread;
  private nextId = 1;
  private generation = 0;
  private failures = 0;
  private closed = false;
  /** Whether a thread ever opened the database: one that never did is not restarted. */
  private opened = false;
  private gone: Error | undefined;
  private readonly turns = new Turns();
  private readonly sessionListeners = new Set<() => void>();
  private readonly entry = threadEntryBeside(import.meta.url, 'pglite-worker');
  private restartTimer: NodeJS.Timeout | undefined;

  private constructor(private readonly options: PgliteThreadOptions) {}

  /** Starts the thread and waits until its database is open (a bad folder or dump throws here). */
  static async open(options: PgliteThreadOptions): Promise<PgliteThread> {
    const database = new PgliteThread(options);
    database.thread = await database.start();
    try {
      await database.thread.ready;
      database.opened = true;
    } catch (error) {
      database.closed = true;
      throw error;
    }
    return database;
  }

  /** Threads started after the first because one died. */
  get restarts(): number {
    return this.generation - 1;
  }

  /** Whether statements go to an open database now (false while its thread restarts). */
  get running(): boolean {
    return !this.closed && !this.gone && this.thread.alive && this.thread.open;
  }

  /** Resolves once the database is open (PGlite's `waitReady`). */
  get waitReady(): Promise<void> {
    return this.thread.ready;
  }

  private async start(): Promise<Thread> {
    const data: PgliteThreadData = { dataDir: this.options.dataDir, vector: this.options.vector, wasmModule: await pgliteWasm() };
    const transferList: ArrayBuffer[] = [];
    // A dump starts a new database; a restarted thread opens what its folder holds.
    if (this.options.loadDataDir && this.generation === 0) {
      data.loadDataDir = await this.options.loadDataDir.arrayBuffer();
      transferList.push(data.loadDataDir);
    }
    this.generation += 1;
    const worker = new Worker(threadBootstrap(), {
      workerData: { ...data, entry: this.entry },
      transferList,
      execArgv: threadExecArgv(process.execArgv),
    });
    let opened!: () => void;
    let failed!: (error: Error) => void;
    const thread: Thread = {
      worker,
      pending: new Map(),
      alive: true,
      open: false,
      ready: new Promise<void>((resolve, reject) => ((opened = resolve), (failed = reject))),
    };
    thread.ready.catch(() => undefined);
    worker.on('message', (reply: PgliteReply) => {
      if ('op' in reply) {
        if (reply.op === 'ready') {
          thread.open = true;
          opened();
        }
        else failed(fromWire(reply.error));
        if (thread.pending.size === 0) worker.unref();
        return;
      }
      const pending = thread.pending.get(reply.id);
      if (!pending) return;
      thread.pending.delete(reply.id);
      if (thread.pending.size === 0) worker.unref();
      if (reply.ok) pending.resolve(reply.value);
      else pending.reject(fromWire(reply.error));
    });
    const stopped = (reason: string) => {
      if (!thread.alive) return;
      thread.alive = false;
      const error = new DatabaseUnavailableError(`the embedded database stopped (${reason})${this.closed ? '' : '; retry'}`);
      failed(error);
      for (const pending of thread.pending.values()) pending.reject(error);
      thread.pending.clear();
      if (!this.closed && this.opened) this.restartAfter(thread, reason);
    };
    worker.on('error', (error) => stopped(error.message));
    worker.on('exit', (code) => stopped(`its thread exited with code ${code}`));
    // Referenced while it opens or owes an answer, so the process waits for it then and only then.
    return thread;
  }

  /** A dead thread's successor: on the same folder (an in-memory database is gone for good). */
  private restartAfter(dead: Thread, reason: string): void {
    const log = this.options.log;
    if (this.thread !== dead) return;
    if (!this.options.dataDir) {
      this.gone = new DatabaseUnavailableError(`the embedded in-memory database stopped (${reason}) and cannot restart`, false);
      log?.error({ reason }, 'the embedded database stopped; it was in memory, so it cannot restart');
      return;
    }
    const backoff = this.options.restartBackoffMs?.length ? this.options.restartBackoffMs : RESTART_BACKOFF_MS;
    const delay = backoff[Math.min(this.failures, backoff.length - 1)]!;
    this.failures += 1;
    log?.error({ reason, delayMs: delay, restarts: this.restarts + 1 }, 'the embedded database stopped; restarting it on its folder');
    let successor!: (thread: Thread) => void;
    const next = new Promise<Thread>((resolve) => (successor = resolve));
    // Statements sent meanwhile wait on this placeholder's `ready`, which settles with the new thread's.
    this.thread = { ...dead, ready: next.then((thread) => thread.ready) };
    this.thread.ready.catch(() => undefined);
    this.restartTimer = setTimeout(() => {
      this.restartTimer = undefined;
      if (this.closed) return;
      this.start().then(
        (thread) => {
          if (this.closed) {
            void thread.worker.terminate();
            return;
          }
          this.thread = thread;
          successor(thread);
          thread.ready.then(
            () => {
              this.failures = 0;
              log?.warn({ restarts: this.restarts }, 'the embedded database is back');
              for (const listener of this.sessionListeners) listener();
            },
            () => undefined,
          );
        },
        (error: unknown) => {
          const failed: Thread = { ...dead, ready: Promise.reject(error instanceof Error ? error : new Error(String(error))) };
          failed.ready.catch(() => undefined);
          successor(failed);
          this.thread = failed;
          this.restartAfter(failed, error instanceof Error ? error.message : String(error));
        },
      );
    }, delay);
    this.restartTimer.unref();
  }

  /** The running thread, waiting for a restart in progress (up to restartWaitMs). */
  private async current(): Promise<Thread> {
    const running = this.thread;
    if (running.alive && running.open && !this.closed) return running;
    const deadline = performance.now() + (this.options.restartWaitMs ?? 10_000);
    for (;;) {
      if (this.closed) throw new DatabaseUnavailableError('the embedded database is closed', false);
      if (this.gone) throw this.gone;
      const thread = this.thread;
      const left = deadline - performance.now();
      if (left <= 0) throw new DatabaseUnavailableError('the embedded database is restarting; retry');
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), left)));
      try {
        const outcome = await Promise.race([thread.ready.then(() => 'ready' as const), timeout]);
        if (outcome === 'ready' && thread.alive && this.thread === thread) return thread;
      } catch {
        // This thread failed to open: its successor is on the way (or the database is gone).
        await new Promise((resolve) => setTimeout(resolve, 20));
      } finally {
        clearTimeout(timer);
      }
    }
  }

  private post(thread: Thread, request: PgliteCall, transfer?: ArrayBuffer[]): Promise<unknown> {
    if (!thread.alive) return Promise.reject(new DatabaseUnavailableError('the embedded database stopped; retry'));
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      if (thread.pending.size === 0) thread.worker.ref();
      thread.pending.set(id, { resolve, reject });
      thread.worker.postMessage({ ...request, id }, transfer ?? []);
    });
  }

  /** A statement outside any transaction: it waits for a transaction that holds the session. */
  private async outside(request: PgliteCall): Promise<unknown> {
    // The common case, no transaction holding or waiting and the thread up: posted at once.
    const running = this.thread;
    if (this.turns.free && running.alive && running.open && !this.closed) return await this.post(running, request);
    const release = await this.turns.acquire();
    let answer: Promise<unknown>;
    try {
      answer = this.post(await this.current(), request);
    } finally {
      release();
    }
    return await answer;
  }

  query<T>(sql: string, params: unknown[] = [], options: QueryOptions = {}): Promise<Results<T>> {
    return this.runQuery<T>((request) => this.outside(request), sql, params, options);
  }

  exec(sql: string, options: QueryOptions = {}): Promise<Results[]> {
    if (Object.keys(options).length) throw new Error('exec options are not supported by the embedded database thread');
    return this.outside({ op: 'exec', sql }) as Promise<Results[]>;
  }

  private async runQuery<T>(
    send: (request: PgliteCall) => Promise<unknown>,
    sql: string,
    params: unknown[],
    options: QueryOptions,
  ): Promise<Results<T>> {
    if (options.serializers || options.blob || options.paramTypes) {
      throw new Error('serializers, blob and paramTypes are not supported by the embedded database thread');
    }
    const parsers = options.parsers ?? {};
    const rawTypes = Object.keys(parsers).map(Number);
    const rowMode = options.rowMode ?? 'object';
    const result = (await send({ op: 'query', sql, params, rowMode, rawTypes })) as Results<T>;
    if (rawTypes.length) applyParsers(result as Results, parsers, rowMode);
    return result;
  }

  /**
   * Runs `fn` in a transaction with the session to itself: BEGIN, its statements, COMMIT (ROLLBACK
   * when it throws). A statement after the thread died fails without reaching the new session.
   */
  async transaction<T>(fn: (tx: Transaction) => Promise<T>): Promise<T> {
    const release = await this.turns.acquire();
    try {
      const thread = await this.current();
      const send = (request: PgliteCall) => this.post(thread, request);
      await send({ op: 'exec', sql: 'BEGIN' });
      let closed = false;
      const ensureOpen = () => {
        if (closed) throw new Error('the transaction is closed');
      };
      const tx = {
        query: <R>(sql: string, params: unknown[] = [], options: QueryOptions = {}) => {
          ensureOpen();
          return this.runQuery<R>(send, sql, params, options);
        },
        exec: async (sql: string) => {
          ensureOpen();
          return (await send({ op: 'exec', sql })) as Results[];
        },
        rollback: async () => {
          ensureOpen();
          await send({ op: 'exec', sql: 'ROLLBACK' });
          closed = true;
        },
        get closed() {
          return closed;
        },
      } as unknown as Transaction;
      try {
        const result = await fn(tx);
        if (!closed) {
          closed = true;
          await send({ op: 'exec', sql: 'COMMIT' });
        }
        return result;
      } catch (error) {
        if (!closed && thread.alive) {
          closed = true;
          await send({ op: 'exec', sql: 'ROLLBACK' }).catch(() => undefined);
        }
        throw error;
      }
    } finally {
      release();
    }
  }

  /** A dump of the whole data folder (a tar; `none` leaves it uncompressed). */
  async dumpDataDir(compression: 'none' | 'gzip' | 'auto' = 'auto'): Promise<Blob> {
    const buffer = (await this.outside({ op: 'dump', compression })) as ArrayBuffer;
    return new Blob([buffer], { type: compression === 'none' ? 'application/x-tar' : 'application/x-gzip' });
  }

  /** pg-boss's hook: `callback` runs whenever a restarted thread opened a new session. */
  onLeaderChange(callback: () => void): () => void {
    this.sessionListeners.add(callback);
    return () => void this.sessionListeners.delete(callback);
  }

  /**
   * Ends the thread as a crash would (tests of the restart). The statements it owed fail, a folder's
   * thread starts again.
   */
  async crashForTests(): Promise<void> {
    const thread = this.thread;
    await thread.worker.terminate();
    while (thread.alive) await new Promise((resolve) => setImmediate(resolve));
  }

  async close(): Promise<void> {
    if (this.closed) return;
    const release = await this.turns.acquire();
    this.closed = true;
    if (this.restartTimer) clearTimeout(this.restartTimer);
    try {
      const thread = this.thread;
      if (thread.alive) {
        const done = this.post(thread, { op: 'close' }).catch(() => undefined);
        await done;
        await thread.worker.terminate();
      }
    } finally {
      release();
    }
  }
}

/** The caller's parsers over the columns the thread left as text (drizzle keeps dates as text). */
function applyParsers(result: Results, parsers: NonNullable<QueryOptions['parsers']>, rowMode: 'array' | 'object'): void {
  result.fields.forEach((field, index) => {
    const parse = parsers[field.dataTypeID];
    if (!parse) return;
    for (const row of result.rows as Record<string | number, unknown>[]) {
      const key = rowMode === 'array' ? index : field.name;
      const value = row[key];
      if (value !== null && value !== undefined) row[key] = (parse as (value: string, type: number) => unknown)(value as string, field.dataTypeID);
    }
  });
}
