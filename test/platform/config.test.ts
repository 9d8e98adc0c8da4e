import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { CONFIG_VARIABLES, ConfigError, loadConfig } from '../../src/config/config.js';
import { repoRoot } from '../support/processes.js';

describe('configuration', () => {
  it('documents every variable in .env.example and the README', () => {
    const example = readFileSync(path.join(repoRoot, '.env.example'), 'utf8');
    const readme = readFileSync(path.join(repoRoot, 'README.md'), 'utf8');
    for (const name of CONFIG_VARIABLES) {
      assert.match(example, new RegExp(`^#? ?${name}=`, 'm'), `${name} in .env.example`);
      assert.ok(readme.includes(`\`${name}\``), `${name} in README.md`);
    }
  });

  it('has the documented defaults', () => {
    const config = loadConfig({});
    assert.equal(config.host, '0.0.0.0');
    assert.equal(config.port, 8080);
    assert.equal(config.databaseUrl, undefined);
    assert.equal(config.dataDir, path.resolve('./data'));
    assert.equal(config.bodyLimitBytes, 10 * 1024 * 1024);
    assert.equal(config.authCacheMs, 1000);
  });

  it('lists every problem at once', () => {
    assert.throws(
      () => loadConfig({ PORT: '99999', PARLEY_AUTH_CACHE_MS: '5000', PARLEY_ADMIN_TOKEN: 'short' }),
      (error: unknown) => {
        assert.ok(error instanceof ConfigError);
        assert.deepEqual(error.problems.map((p) => p.split(':')[0]).sort(), ['PARLEY_ADMIN_TOKEN', 'PARLEY_AUTH_CACHE_MS', 'PORT']);
        return true;
      },
    );
  });
});
