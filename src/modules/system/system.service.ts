import { checkReadiness, type Readiness } from '../../db/migrate.js';
import type { Database } from '../../db/database.js';

/** Whether this process can serve: the database answers and every migration is applied. */
export function readiness(database: Database): Promise<Readiness> {
  return checkReadiness(database);
}
