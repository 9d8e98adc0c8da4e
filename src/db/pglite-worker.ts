/**
 * The embedded database's thread (db/pglite-thread.ts starts it): one PGlite, opened from the
 * thread's `workerData`, answering the statements the process posts. PGlite runs each statement
 * synchronously on this thread's event loop, which is why it is here and not on the API's.
 *
 * Messages in: { id, op: 'query', sql, params, rowMode, rawTypes } | { id, op: 'exec', sql } |
 * { id, op: 'dump', compression } | { id, op: 'close' }. Out: { id, ok: true, value } or
 * { id, ok: false, error } (the error's own fields kept: SQLSTATE `code`, detail, constraint...),
 * and once { op: 'ready' } or { op: 'failed', error } after opening.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite, type PGliteOptions, type QueryOptions, type Results } from '@electric-sql/pglite';

/** What the process gives the thread to open. */
export interface PgliteThreadData {
  /** The data folder (PGlite's, inside PARLEY_DATA_DIR), or none for an in-memory database. */
  dataDir?: string;
  /** An uncompressed or gzipped dump to start a new database from (tests): in memory, or into an empty folder. */
  loadDataDir?: ArrayBuffer;
  /** Load pgvector. */
  vector?: boolean;
  /** PGlite's compiled WebAssembly (a WebAssembly.Module), shared by the process's threads so each does not compile it. */
  wasmModule?: object;
}

/** A request before the process numbers it. */
export type PgliteCall =
  | { op: 'query'; sql: string; params: unknown[]; rowMode: 'array' | 'object'; rawTypes: number[] }
  | { op: 'exec'; sql: string }
  | { op: 'dump'; compression: 'none' | 'gzip' | 'auto' }
  | { op: 'close' };

export type PgliteRequest = PgliteCall & { id: number };


/** An error as data: its message, name and every own field a caller may read (code, detail...). */
export type WireError = { message: string; name: string; stack?: string } & Record<string, unknown>;

export type PgliteReply =
  | { id: number; ok: true; value: unknown }
  | { id: number; ok: false; error: WireError; fatal: boolean }
  | { op: 'ready' }
  | { op: 'failed'; error: WireError };

function toWire(error: unknown): WireError {
  if (!(error instanceof Error)) return { message: String(error), name: 'Error' };
  const fields: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(error)) {
    if (value === null || ['string', 'number', 'boolean'].includes(typeof value)) fields[key] = value;
  }
  return { ...fields, message: error.message, name: error.name, stack: error.stack };
}

/**
 * Errors after which this PGlite cannot go on: the WebAssembly aborted (out of memory, an assertion)
 * or Postgres exited. The thread answers the statement, then exits; the process starts a new one on
 * the same folder, where Postgres recovers from its write-ahead log.
 */
function isFatal(error: unknown): boolean {
  return error instanceof Error && (error.name === 'RuntimeError' || error.name === 'ExitStatus');
}

/** Keeps the text of the named types as Postgres sent it; the process applies the caller's parsers. */
function rawParsers(types: readonly number[]): QueryOptions['parsers'] {
  return Object.fromEntries(types.map((type) => [type, (value: string) => value]));
}

function plain(result: Results): unknown {
  return { rows: result.rows, fields: result.fields, affectedRows: result.affectedRows };
}

async function open(data: PgliteThreadData): Promise<PGlite> {
  const extensions = data.vector ? { vector: (await import('@electric-sql/pglite-pgvector')).vector } : undefined;
  const options = { extensions, ...(data.wasmModule ? { pgliteWasmModule: data.wasmModule as PGliteOptions['pgliteWasmModule'] } : {}) };
  const loadDataDir = data.loadDataDir ? new Blob([data.loadDataDir]) : undefined;
  const pglite = new PGlite(data.dataDir ?? 'memory://', { ...options, ...(loadDataDir ? { loadDataDir } : {}) });
  await pglite.waitReady;
  return pglite;
}

async function answer(pglite: PGlite, request: PgliteRequest): Promise<{ value: unknown; transfer?: ArrayBuffer[] }> {
  switch (request.op) {
    case 'query': {
      const options: QueryOptions = { rowMode: request.rowMode };
      if (request.rawTypes.length) options.parsers = rawParsers(request.rawTypes);
      return { value: plain(await pglite.query(request.sql, request.params, options)) };
    }
    case 'exec':
      return { value: (await pglite.exec(request.sql)).map(plain) };
    case 'dump': {
      const buffer = await (await pglite.dumpDataDir(request.compression)).arrayBuffer();
      return { value: buffer, transfer: [buffer] };
    }
    case 'close':
      await pglite.close();
      return { value: null };
  }
}

function main(): void {
  const port = parentPort;
  if (!port) throw new Error('pglite-worker runs as a worker thread');
  const post = (reply: PgliteReply, transfer?: ArrayBuffer[]) => port.postMessage(reply, transfer ?? []);
  open(workerData as PgliteThreadData).then(
    (pglite) => {
      port.on('message', (request: PgliteRequest) => {
        answer(pglite, request).then(
          ({ value, transfer }) => post({ id: request.id, ok: true, value }, transfer),
          (error: unknown) => {
            const fatal = isFatal(error);
            post({ id: request.id, ok: false, error: toWire(error), fatal });
            if (fatal) process.exit(1);
          },
        );
      });
      post({ op: 'ready' });
    },
    (error: unknown) => {
      post({ op: 'failed', error: toWire(error) });
      process.exit(1);
    },
  );
}

main();
