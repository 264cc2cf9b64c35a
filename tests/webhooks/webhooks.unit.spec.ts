import { newSigningSecret, signatureHeader, signatureOf } from '@commands/webhooks/signing';
import { addressAllowed } from '@commands/webhooks/targets';
import {
  checkEndpointUrl,
  outcomeOf,
  retryDelayMs,
  STANDARD_RETRY_SCHEDULE_MS,
  warnsAfter,
} from '@domain/webhooks/subscriptions';
import { describe, expect, it } from 'vitest';
import { verifyStandardWebhook } from './support';

/** The pure parts of the webhooks: the signature, the addresses a webhook may reach, the URL rules, the schedule. */

// The test vector the Standard Webhooks reference libraries sign against.
const VECTOR = {
  secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
  id: 'msg_p5jXN8AQM9LWM0D4loKWxJek',
  timestamp: 1614265330,
  body: '{"test": 2432232314}',
  signature: 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
};

describe('webhook signatures', () => {
  it('signs the reference test vector as the Standard Webhooks libraries do', () => {
    expect(signatureOf(VECTOR.secret, VECTOR.id, VECTOR.timestamp, VECTOR.body)).toBe(VECTOR.signature);
  });

  it('lists one v1 entry per signing secret, space-separated, each verifying on its own', () => {
    const old = newSigningSecret();
    const fresh = newSigningSecret();
    const now = Math.floor(Date.now() / 1000);
    const header = signatureHeader([fresh, old], 'evt-1', now, '{"a":1}');
    expect(header.split(' ')).toHaveLength(2);
    const headers = { 'webhook-id': 'evt-1', 'webhook-timestamp': String(now), 'webhook-signature': header };
    expect(verifyStandardWebhook(fresh, headers, '{"a":1}')).toBe(true);
    expect(verifyStandardWebhook(old, headers, '{"a":1}')).toBe(true);
    expect(verifyStandardWebhook(newSigningSecret(), headers, '{"a":1}')).toBe(false);
    // A body changed by one character no longer verifies.
    expect(verifyStandardWebhook(fresh, headers, '{"a":2}')).toBe(false);
  });

  it('makes whsec_ secrets of 32 random bytes', () => {
    const secret = newSigningSecret();
    expect(secret).toMatch(/^whsec_/);
    expect(Buffer.from(secret.slice(6), 'base64')).toHaveLength(32);
    expect(newSigningSecret()).not.toBe(secret);
  });
});

describe('webhook targets', () => {
  const production = { allowLoopback: false };
  it.each([
    '10.0.0.1',
    '172.16.5.4',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '224.0.0.1',
    '::',
    'fd12:3456::1',
    'fe80::1',
    '::ffff:10.0.0.1',
    '127.0.0.1',
    '::1',
  ])('refuses %s in production', (address) => {
    expect(addressAllowed(address, production)).toBe(false);
  });

  it.each(['93.184.216.34', '1.1.1.1', '2606:4700:4700::1111'])('allows the public %s', (address) => {
    expect(addressAllowed(address, production)).toBe(true);
  });

  it('allows loopback only where configured (tests, development)', () => {
    expect(addressAllowed('127.0.0.1', { allowLoopback: true })).toBe(true);
    expect(addressAllowed('::1', { allowLoopback: true })).toBe(true);
    expect(addressAllowed('10.0.0.1', { allowLoopback: true })).toBe(false);
  });

  it('takes https anywhere, and http only to this machine where loopback is allowed', () => {
    expect(checkEndpointUrl('https://erp.example.com/hooks', production).hostname).toBe('erp.example.com');
    expect(() => checkEndpointUrl('http://erp.example.com/hooks', { allowLoopback: true })).toThrow();
    expect(() => checkEndpointUrl('http://localhost:9000/hooks', production)).toThrow();
    expect(checkEndpointUrl('http://localhost:9000/hooks', { allowLoopback: true }).port).toBe('9000');
    expect(() => checkEndpointUrl('https://user:pw@erp.example.com/', production)).toThrow();
  });
});

describe('webhook retries', () => {
  it('retries for at least three days, jitter only adding to each wait', () => {
    const total = (random: number) =>
      STANDARD_RETRY_SCHEDULE_MS.reduce(
        (sum, _, index) => sum + retryDelayMs(STANDARD_RETRY_SCHEDULE_MS, index + 1, random)!,
        0,
      );
    expect(total(0)).toBeGreaterThanOrEqual(72 * 3_600_000);
    expect(total(0.999)).toBeLessThanOrEqual(total(0) * 1.2);
    expect(retryDelayMs(STANDARD_RETRY_SCHEDULE_MS, 1, 0)).toBe(5_000);
    expect(retryDelayMs(STANDARD_RETRY_SCHEDULE_MS, 1, 0.5)).toBe(5_500);
    expect(retryDelayMs(STANDARD_RETRY_SCHEDULE_MS, STANDARD_RETRY_SCHEDULE_MS.length + 1, 0)).toBeNull();
  });

  it('warns once, some retries before the schedule is spent', () => {
    const warned = STANDARD_RETRY_SCHEDULE_MS.map((_, index) =>
      warnsAfter(STANDARD_RETRY_SCHEDULE_MS, index + 1),
    );
    expect(warned.filter(Boolean)).toHaveLength(1);
    expect(warned.indexOf(true)).toBe(STANDARD_RETRY_SCHEDULE_MS.length - 3);
  });

  it('takes 2xx as delivered, 410 as gone, anything else (redirects, timeouts) as failed', () => {
    expect([200, 204, 299].map(outcomeOf)).toEqual(['delivered', 'delivered', 'delivered']);
    expect(outcomeOf(410)).toBe('gone');
    expect([301, 400, 429, 500, 503, null].map(outcomeOf)).toEqual(Array(6).fill('failed'));
  });
});
