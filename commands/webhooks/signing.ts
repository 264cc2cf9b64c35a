import { createHmac, randomBytes } from 'node:crypto';

/**
 * Standard Webhooks' symmetric scheme (spec "Signature scheme"): a secret of 24 to 64 random bytes shown as
 * `whsec_<base64>`; each delivery signed as `v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<body>">`
 * keyed with the secret's decoded bytes. During a rotation the old secret signs too: the header lists both,
 * space-separated, and a receiver accepts either.
 */

const PREFIX = 'whsec_';
const SECRET_BYTES = 32;

export function newSigningSecret(): string {
  return `${PREFIX}${randomBytes(SECRET_BYTES).toString('base64')}`;
}

function keyOf(secret: string): Buffer {
  return Buffer.from(secret.startsWith(PREFIX) ? secret.slice(PREFIX.length) : secret, 'base64');
}

export function signatureOf(secret: string, id: string, timestamp: number, body: string): string {
  const mac = createHmac('sha256', keyOf(secret)).update(`${id}.${timestamp}.${body}`).digest('base64');
  return `v1,${mac}`;
}

/** The `webhook-signature` header: one `v1,…` entry per secret that signs now (the current one first). */
export function signatureHeader(
  secrets: readonly string[],
  id: string,
  timestamp: number,
  body: string,
): string {
  return secrets.map((secret) => signatureOf(secret, id, timestamp, body)).join(' ');
}
