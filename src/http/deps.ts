import type { Logger } from 'pino';
import type { Clock } from '../clock.js';
import type { Config } from '../config/config.js';
import type { Database } from '../db/database.js';
import type { JobQueue } from '../jobs/queue.js';
import type { Principal } from '../modules/api-keys/index.js';
import type { RouteAuth } from './route.js';

/** Everything buildApp needs; tests pass their own. */
export interface AppDeps {
  config: Config;
  database: Database;
  queue: JobQueue;
  clock: Clock;
  logger: Logger;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    auth?: RouteAuth;
  }
  interface FastifyRequest {
    principal?: Principal;
  }
}
