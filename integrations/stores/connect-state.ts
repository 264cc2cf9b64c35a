import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * The `state` a connect link carries through the marketplace and back: which account (and user) asked to connect a
 * store on which platform, until when, HMAC-SHA256-signed with the process's state secret. The callback accepts it
 * only for the account of the caller, so an authorisation started by one account can never attach a shop to
 * another, and a state made up or edited by anyone else fails its signature.
 */

export const CONNECT_STATE_TTL_MS = 30 * 60 * 1000;

interface StatePayload {
  v: 1;
  /** tenant, user, platform */
  t: string;
  u: string;
  p: string;
  /** expires, ms since the epoch */
  e: number;
  n: string;
}

export type StateCheck =
  | { ok: true; tenantId: string; userId: string; platform: string }
  | { ok: false; reason: 'invalid' | 'expired' | 'other_account' };

const sign = (secret: Buffer, body: string) => createHmac('sha256', secret).update(body).digest();

export function signConnectState(
  secret: Buffer,
  input: { tenantId: string; userId: string; platform: string; now?: number },
): { state: string; expiresAt: Date } {
  const expires = (input.now ?? Date.now()) + CONNECT_STATE_TTL_MS;
  const payload: StatePayload = {
    v: 1,
    t: input.tenantId,
    u: input.userId,
    p: input.platform,
    e: expires,
    n: randomBytes(9).toString('base64url'),
  };
  const body = Buffer.from(JSON.stringify(payload)).toString('base64url');
  return { state: `${body}.${sign(secret, body).toString('base64url')}`, expiresAt: new Date(expires) };
}

export function checkConnectState(
  secret: Buffer,
  state: string | undefined,
  expected: { tenantId: string; platform: string; now?: number },
): StateCheck {
  const match = /^([A-Za-z0-9_-]{1,1000})\.([A-Za-z0-9_-]{43})$/.exec(state ?? '');
  if (!match) return { ok: false, reason: 'invalid' };
  const [, body, mac] = match as unknown as [string, string, string];
  // Compared as text: only the one canonical encoding of the signature is accepted.
  const given = Buffer.from(mac);
  const wanted = Buffer.from(sign(secret, body).toString('base64url'));
  if (given.length !== wanted.length || !timingSafeEqual(given, wanted))
    return { ok: false, reason: 'invalid' };
  let payload: StatePayload;
  try {
    payload = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as StatePayload;
  } catch {
    return { ok: false, reason: 'invalid' };
  }
  if (payload.v !== 1 || payload.p !== expected.platform) return { ok: false, reason: 'invalid' };
  if (!(payload.e > (expected.now ?? Date.now()))) return { ok: false, reason: 'expired' };
  if (payload.t !== expected.tenantId) return { ok: false, reason: 'other_account' };
  return { ok: true, tenantId: payload.t, userId: payload.u, platform: payload.p };
}
