import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import path from 'node:path';

/** What a running Parley writes into its data folder so others can find (or refuse) it. */
export interface LockInfo {
  pid: number;
  startedAt: string;
  /** Base URL of the running server's HTTP API, once it listens. */
  url?: string;
}

export class DataDirLockedError extends Error {
  constructor(
    readonly dataDir: string,
    readonly holder: LockInfo,
  ) {
    super(
      `the data folder ${dataDir} is in use by another Parley process (pid ${holder.pid}` +
        `${holder.url ? `, serving ${holder.url}` : ''}). PGlite allows one process per folder: ` +
        'stop that process, use another PARLEY_DATA_DIR, or run on PostgreSQL with DATABASE_URL.',
    );
    this.name = 'DataDirLockedError';
  }
}

const LOCK_FILE = 'parley.lock';

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The lock of a live process on this folder, if there is one (stale locks read as absent). */
export function readLock(dataDir: string): LockInfo | undefined {
  try {
    const info = JSON.parse(readFileSync(path.join(dataDir, LOCK_FILE), 'utf8')) as LockInfo;
    return typeof info.pid === 'number' && isAlive(info.pid) ? info : undefined;
  } catch {
    return undefined;
  }
}

export interface DataDirLock {
  update(patch: Partial<LockInfo>): void;
  release(): void;
}

/** Takes the folder's lock file, replacing a stale one; throws DataDirLockedError if a live process holds it. */
export function acquireDataDirLock(dataDir: string): DataDirLock {
  mkdirSync(dataDir, { recursive: true });
  const file = path.join(dataDir, LOCK_FILE);
  let info: LockInfo = { pid: process.pid, startedAt: new Date().toISOString() };
  for (let attempt = 0; attempt < 3; attempt += 1) {
    try {
      const fd = openSync(file, 'wx', 0o600);
      writeSync(fd, JSON.stringify(info));
      closeSync(fd);
      let released = false;
      return {
        update(patch) {
          info = { ...info, ...patch };
          writeFileSync(file, JSON.stringify(info), { mode: 0o600 });
        },
        release() {
          if (released) return;
          released = true;
          rmSync(file, { force: true });
        },
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = readLock(dataDir);
      if (holder && holder.pid !== process.pid) throw new DataDirLockedError(dataDir, holder);
      rmSync(file, { force: true });
    }
  }
  throw new Error(`could not take the lock file ${file}`);
}
