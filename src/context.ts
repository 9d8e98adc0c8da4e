import type { Logger } from 'pino';
import type { Clock } from './clock.js';
import type { Config } from './config/config.js';
import type { Db } from './db/database.js';
import type { JobQueue } from './jobs/queue.js';

export type Scope = 'read' | 'write';

/** What every service function receives first when called for a workspace API key. */
export interface RequestContext {
  readonly workspaceId: string;
  readonly apiKeyId: string;
  readonly scopes: readonly Scope[];
  readonly requestId: string;
  readonly db: Db;
  readonly clock: Clock;
  readonly log: Logger;
  readonly queue: JobQueue;
  readonly config: Config;
}

/** Context of the operator (admin API, CLI): no workspace of its own, acts on the one it names. */
export interface OperatorContext {
  readonly requestId: string;
  readonly db: Db;
  readonly clock: Clock;
  readonly log: Logger;
  readonly queue: JobQueue;
  readonly config: Config;
}
