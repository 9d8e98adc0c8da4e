import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/**
 * Secrets at rest (data-step values marked `hide`, provider credentials): AES-256-GCM under
 * PARLEY_SECRET_KEY (32 bytes, base64), generated into the data folder in embedded mode
 * (runtime.ts). A sealed value is `v1.` + base64url(iv[12] | tag[16] | ciphertext); opening checks
 * the tag, so a changed value or another key is an error, never garbage.
 */

/** How every response, log line and trace shows a secret. */
export const MASK = '********';

export const SECRET_KEY_BYTES = 32;
const VERSION = 'v1.';

/** The 32-byte key of a PARLEY_SECRET_KEY value, or why it is not one. */
export function parseSecretKey(value: string): Buffer | string {
  const trimmed = value.trim();
  if (!/^[A-Za-z0-9+/_-]+={0,2}$/.test(trimmed)) return 'must be base64 (generate one with: openssl rand -base64 32)';
  const key = Buffer.from(trimmed.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
  return key.length === SECRET_KEY_BYTES ? key : `must decode to ${SECRET_KEY_BYTES} bytes, not ${key.length} (generate one with: openssl rand -base64 32)`;
}

/** A new random key, base64. */
export function generateSecretKey(): string {
  return randomBytes(SECRET_KEY_BYTES).toString('base64');
}

export class SecretError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SecretError';
  }
}

export interface SecretBox {
  seal(plain: string): string;
  open(sealed: string): string;
}

/** Whether a stored string is a sealed secret (rather than a plain value). */
export function isSealed(value: unknown): value is string {
  return typeof value === 'string' && value.startsWith(VERSION);
}

export function createSecretBox(key: Buffer): SecretBox {
  if (key.length !== SECRET_KEY_BYTES) throw new SecretError(`a secret key has ${SECRET_KEY_BYTES} bytes`);
  return {
    seal(plain) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return VERSION + Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url');
    },
    open(sealed) {
      if (!isSealed(sealed)) throw new SecretError('not a sealed secret');
      const raw = Buffer.from(sealed.slice(VERSION.length), 'base64url');
      if (raw.length < 28) throw new SecretError('a sealed secret is too short');
      const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, 12));
      decipher.setAuthTag(raw.subarray(12, 28));
      try {
        return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
      } catch {
        throw new SecretError('a sealed secret does not open with this key (PARLEY_SECRET_KEY changed, or the value was altered)');
      }
    },
  };
}
