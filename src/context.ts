import type { Logger } from 'pino';
import type { Clock } from './clock.js';
import type { Config } from './config/config.js';
import type { Db } from './db/database.js';
import type { JobQueue } from './jobs/queue.js';
import type { Principal } from './modules/api-keys/index.js';

export type Scope = 'read' | 'write';

/** Context of the operator (admin API, CLI): no workspace of its own, acts on the one it names. */
export interface OperatorContext {
  readonly requestId: string;
  readonly db: Db;
  readonly clock: Clock;
  readonly log: Logger;
  readonly queue: JobQueue;
  readonly config: Config;
}

/** What every service function receives first when called with a workspace API key. */
export interface RequestContext extends OperatorContext {
  readonly workspaceId: string;
  readonly apiKeyId: string;
  readonly scopes: readonly Scope[];
  /** The verified key and its workspace, as authentication read them (at most 1 s old). */
  readonly principal: Principal;
}
