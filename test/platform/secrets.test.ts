// Secrets at rest (src/secrets.ts): AES-256-GCM sealing, tamper and wrong-key detection, the key's format.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ConfigError, loadConfig } from '../../src/config/config.js';
import { createSecretBox, generateSecretKey, isSealed, parseSecretKey, SecretError } from '../../src/secrets.js';

const key = (fill: number) => Buffer.alloc(32, fill);

describe('secret box', () => {
  const box = createSecretBox(key(1));

  it('seals and opens, with a fresh nonce every time', () => {
    const a = box.seal('sk_live_123 ünïcode');
    const b = box.seal('sk_live_123 ünïcode');
    assert.ok(isSealed(a));
    assert.notEqual(a, b);
    assert.ok(!a.includes('sk_live'));
    assert.equal(box.open(a), 'sk_live_123 ünïcode');
    assert.equal(box.open(box.seal('')), '');
  });

  it('refuses an altered value, another key and a non-sealed string', () => {
    const sealed = box.seal('secret');
    const raw = Buffer.from(sealed.slice(3), 'base64url');
    raw[raw.length - 1] = raw[raw.length - 1]! ^ 1;
    assert.throws(() => box.open(`v1.${raw.toString('base64url')}`), SecretError);
    assert.throws(() => createSecretBox(key(2)).open(sealed), /does not open with this key/);
    assert.throws(() => box.open('plain'), /not a sealed secret/);
    assert.throws(() => box.open('v1.AAAA'), /too short/);
    assert.throws(() => createSecretBox(Buffer.alloc(16)), /32 bytes/);
  });

  it('reads keys in base64 and base64url and explains a wrong one', () => {
    const generated = generateSecretKey();
    assert.equal((parseSecretKey(generated) as Buffer).length, 32);
    assert.equal((parseSecretKey(key(9).toString('base64url')) as Buffer).length, 32);
    assert.equal(parseSecretKey('c2hvcnQ='), 'must decode to 32 bytes, not 5 (generate one with: openssl rand -base64 32)');
    assert.match(parseSecretKey('not base64!') as string, /must be base64/);
    assert.throws(() => loadConfig({ PARLEY_SECRET_KEY: 'c2hvcnQ=' }), (error: unknown) => error instanceof ConfigError && /PARLEY_SECRET_KEY: must decode to 32 bytes/.test(error.message));
    assert.equal(loadConfig({ PARLEY_SECRET_KEY: ` ${generated} ` }).secretKey, generated);
  });
});
