// Migrations that rewrite stored values, run on a database migrated to just before them.
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { PGlite } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import { migrationsFolder } from '../../src/db/migrate.js';

/** A copy of migrations/ that stops before the migration whose tag starts with `before`. */
function migrationsUpTo(before: string): { folder: string; remove(): void } {
  const folder = mkdtempSync(path.join(os.tmpdir(), 'parley-migrations-'));
  cpSync(migrationsFolder, folder, { recursive: true });
  const journalFile = path.join(folder, 'meta/_journal.json');
  const journal = JSON.parse(readFileSync(journalFile, 'utf8')) as { entries: { tag: string }[] };
  const index = journal.entries.findIndex((e) => e.tag.startsWith(before));
  assert.ok(index > 0, `no migration ${before}`);
  writeFileSync(journalFile, JSON.stringify({ ...journal, entries: journal.entries.slice(0, index) }));
  return { folder, remove: () => rmSync(folder, { recursive: true, force: true }) };
}

describe('migrations', () => {
  it("0012 renames the specification's provider placeholders to the deployed names, keeping every record", async () => {
    const earlier = migrationsUpTo('0012');
    const pglite = new PGlite();
    try {
      const db = drizzle({ client: pglite });
      await migrate(db, { migrationsFolder: earlier.folder });
      const { rows } = await pglite.query<{ id: string }>(`INSERT INTO workspaces (name) VALUES ('w') RETURNING id`);
      const workspace = rows[0]!.id;
      const kinds = ['provider_drive', 'provider_notes', 'provider_helpdesk', 'provider_wiki', 'web', 'files'];
      for (const [i, kind] of kinds.entries()) {
        await pglite.query(`INSERT INTO sources (workspace_id, source, external_id, original_url, title) VALUES ($1, $2, $3, $4, $5)`, [workspace, kind, `ext-${i}`, `https://x.test/${i}`, `t${i}`]);
      }
      await migrate(db, { migrationsFolder });
      const after = await pglite.query<{ source: string; external_id: string }>(`SELECT source, external_id FROM sources ORDER BY external_id`);
      assert.deepEqual(
        after.rows.map((r) => [r.external_id, r.source]),
        [['ext-0', 'googledrive'], ['ext-1', 'notion'], ['ext-2', 'zendesk'], ['ext-3', 'confluence'], ['ext-4', 'web'], ['ext-5', 'files']],
      );
    } finally {
      await pglite.close();
      earlier.remove();
    }
  });
});
