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

  it('reads the webhook retry schedule in s, m, h and d, and names a bad one', () => {
    const defaults = loadConfig({}).webhooks;
    assert.deepEqual(defaults, { timeoutMs: 10_000, retryDelaysSeconds: [5, 300, 1800, 7200, 18_000, 36_000, 36_000], concurrency: 8, retentionDays: 30 });
    assert.deepEqual(loadConfig({ PARLEY_WEBHOOK_RETRY_SCHEDULE: '0, 30, 1.5m,1d' }).webhooks.retryDelaysSeconds, [0, 30, 90, 86_400]);
    assert.throws(
      () => loadConfig({ PARLEY_WEBHOOK_RETRY_SCHEDULE: '5s,soon' }),
      (error: unknown) => error instanceof ConfigError && /^PARLEY_WEBHOOK_RETRY_SCHEDULE: "soon" is not a delay/.test(error.problems[0] ?? ''),
    );
  });

  describe('language model', () => {
    const problems = (env: Record<string, string>) => {
      try {
        loadConfig(env);
        return [];
      } catch (error) {
        assert.ok(error instanceof ConfigError);
        return error.problems;
      }
    };

    it('uses the built-in engine without a model', () => {
      const { llm } = loadConfig({});
      assert.deepEqual(llm, {
        provider: 'builtin', baseUrl: undefined, model: 'parley-builtin', apiKey: undefined, embeddingModel: undefined,
        builtinEncoder: true, timeoutMs: 60_000, maxRetries: 3, retryDelayMs: 1000,
      });
    });

    it('turns the built-in sentence encoder off, and has none with a configured model', () => {
      assert.equal(loadConfig({ PARLEY_BUILTIN_ENCODER: 'off' }).llm.builtinEncoder, false, 'off');
      assert.equal(loadConfig({ PARLEY_LLM_MODEL: 'gpt-x', PARLEY_LLM_API_KEY: 'sk-1' }).llm.builtinEncoder, false, 'a model answers instead');
      assert.throws(() => loadConfig({ PARLEY_BUILTIN_ENCODER: 'maybe' }), /PARLEY_BUILTIN_ENCODER/, 'only on or off');
    });

    it('infers the provider from a model: openai-compatible with a base URL, openai without', () => {
      assert.equal(loadConfig({ PARLEY_LLM_MODEL: 'qwen', PARLEY_LLM_BASE_URL: 'http://127.0.0.1:11434/v1' }).llm.provider, 'openai-compatible');
      assert.equal(loadConfig({ PARLEY_LLM_MODEL: 'gpt-x', PARLEY_LLM_API_KEY: 'sk-1' }).llm.provider, 'openai');
    });

    it('names every missing or conflicting setting', () => {
      assert.deepEqual(problems({ PARLEY_LLM_PROVIDER: 'openai-compatible' }), [
        'PARLEY_LLM_MODEL: required when PARLEY_LLM_PROVIDER is openai-compatible',
        'PARLEY_LLM_BASE_URL: required when PARLEY_LLM_PROVIDER is openai-compatible',
      ]);
      assert.deepEqual(problems({ PARLEY_LLM_PROVIDER: 'anthropic', PARLEY_LLM_MODEL: 'claude', PARLEY_LLM_EMBEDDING_MODEL: 'e' }), [
        'PARLEY_LLM_API_KEY: required for anthropic (or set PARLEY_LLM_BASE_URL to a server that needs none)',
        'PARLEY_LLM_EMBEDDING_MODEL: the anthropic provider has no embedding models',
      ]);
      assert.deepEqual(problems({ PARLEY_LLM_PROVIDER: 'gemini' }).map((p) => p.split(':')[0]), ['PARLEY_LLM_PROVIDER']);
    });
  });
});
