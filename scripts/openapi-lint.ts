// `npm run openapi:lint`: writes the /openapi.json that a Parley app built in this process serves to
// a file (`--out FILE`, default a temporary one) and runs Redocly CLI's `lint` on it with its
// recommended rules, offline. test/platform/openapi.test.ts runs the same lint in the suite.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { servedOpenApi } from './api-types.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const outIndex = process.argv.indexOf('--out');
const file = outIndex > 0 ? path.resolve(process.argv[outIndex + 1]!) : path.join(mkdtempSync(path.join(os.tmpdir(), 'parley-openapi-')), 'openapi.json');
writeFileSync(file, `${JSON.stringify(await servedOpenApi(), null, 2)}\n`);
process.stdout.write(`wrote ${file}\n`);
const lint = spawnSync(process.execPath, [path.join(ROOT, 'node_modules/@redocly/cli/bin/cli.js'), 'lint', '--extends', 'recommended', file], {
  stdio: 'inherit',
  env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
});
process.exit(lint.status ?? 1);
