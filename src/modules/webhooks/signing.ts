import { createHmac, randomBytes, randomUUID } from 'node:crypto';

/**
 * The Standard Webhooks signature scheme (https://www.standardwebhooks.com): a secret `whsec_` +
 * base64 of random bytes; each request carries `webhook-id`, `webhook-timestamp` (Unix seconds)
 * and `webhook-signature: v1,<base64 HMAC-SHA256 of "id.timestamp.body" under the decoded secret>`.
 * Receivers verify with the specification's libraries (the `standardwebhooks` npm package, and
 * its ports to other languages).
 */

const SECRET_PREFIX = 'whsec_';
const SECRET_BYTES = 32;

/** A new signing secret, as the specification writes them. */
export function newSigningSecret(): string {
  return SECRET_PREFIX + randomBytes(SECRET_BYTES).toString('base64');
}

/** A message id (`webhook-id`): the same for every attempt to deliver one message. */
export function newMessageId(): string {
  return `msg_${randomUUID().replace(/-/g, '')}`;
}

/**
 * The three headers of a signed request carrying `body`: one signature per secret, space-separated
 * as the specification lists them (after a rotation the new secret's and, for a while, the old
 * one's: a receiver verifying with either accepts the request).
 */
export function signatureHeaders(secrets: readonly string[], messageId: string, at: Date, body: string): Record<string, string> {
  const timestamp = Math.floor(at.getTime() / 1000).toString();
  const signatures = secrets.map((secret) => {
    const key = Buffer.from(secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret, 'base64');
    return `v1,${createHmac('sha256', key).update(`${messageId}.${timestamp}.${body}`).digest('base64')}`;
  });
  return { 'webhook-id': messageId, 'webhook-timestamp': timestamp, 'webhook-signature': signatures.join(' ') };
}
