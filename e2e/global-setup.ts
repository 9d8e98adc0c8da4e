// Starts one real `parley serve` for the run (bench/support.ts's startServer: bin/parley.js, which
// builds dist/ and console/dist/ when stale) on a fresh PGlite data folder on 127.0.0.1, and adds a
// read-only key through the admin API. The tests find the server in PARLEY_E2E_* variables.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { startServer, tempDataDir } from '../bench/support.js';

export default async function globalSetup(): Promise<() => Promise<void>> {
  const data = await tempDataDir('parley-e2e-');
  const server = await startServer({
    env: { PARLEY_DATA_DIR: data.path, PARLEY_LOG_LEVEL: 'warn', PARLEY_RATE_LIMIT_MAX: '100000', PARLEY_JOB_POLL_SECONDS: '0.5' },
  });
  try {
    const me = await fetch(`${server.url}/v2/workspace/public`, { headers: { authorization: `Bearer ${server.apiKey}` } });
    const workspace = (await me.json()) as { id: string };
    const adminToken = readFileSync(path.join(data.path, 'admin-token'), 'utf8').trim();
    const created = await fetch(`${server.url}/v2/admin/workspaces/${workspace.id}/api-keys`, {
      method: 'POST',
      headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'e2e read-only', scopes: ['read'] }),
    });
    if (created.status !== 201) throw new Error(`creating the read-only key answered ${created.status}: ${await created.text()}`);
    process.env.PARLEY_E2E_URL = server.url;
    process.env.PARLEY_E2E_KEY = server.apiKey;
    process.env.PARLEY_E2E_READ_KEY = ((await created.json()) as { key: string }).key;
  } catch (error) {
    await server.stop();
    await data.remove();
    throw error;
  }
  return async () => {
    await server.stop();
    await data.remove();
  };
}
