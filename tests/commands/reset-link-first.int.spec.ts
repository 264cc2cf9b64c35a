import { randomBytes } from 'node:crypto';
import { type ResetDeps, resetPassword, resetPosPin, sendResetLink } from '@commands/accounts/recovery';
import { createTenantWithOwner, ensurePackages } from '@commands/accounts/seed';
import { defaultSignInLimits } from '@commands/accounts/sign-in-limits';
import { hashSecret } from '@commands/support/secrets';
import { createTestDatabase, type TestDatabase } from '@tests/support/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * A reset through a bad link costs a lookup, never an argon2 hash (issue 13): the hasher the use case is given
 * counts its calls, and only a good link makes one.
 */

describe('password and PIN reset check the link before hashing', () => {
  let database: TestDatabase;
  let hashes = 0;
  let deps: ResetDeps;
  const visitor = { address: '203.0.113.50' };

  beforeAll(async () => {
    database = await createTestDatabase();
    await ensurePackages(database.db);
    deps = {
      db: database.db,
      signInLimits: { ...defaultSignInLimits, freeFailures: 100 },
      hashSecret: (secret) => {
        hashes++;
        return hashSecret(secret);
      },
    };
  });
  afterAll(async () => {
    await database?.drop();
  });

  /** A seller owner and the token of the link mailed to them. */
  const linkFor = async (purpose: 'password' | 'pos_pin') => {
    const email = `owner-${randomBytes(4).toString('hex')}@shop.test`;
    await createTenantWithOwner(database.db, {
      name: 'Shop',
      country: 'MY',
      status: 'active',
      owner: {
        email,
        firstName: 'Siti',
        lastName: 'Aminah',
        phone: '+60123456789',
        password: 'first secret 1',
      },
    });
    let token = '';
    await sendResetLink(
      {
        db: database.db,
        mailLink: async (_purpose, _to, sent) => {
          token = sent;
        },
      },
      { purpose, email },
    );
    expect(token).not.toBe('');
    return token;
  };

  it('hashes nothing for an unknown, used or wrong-purpose link, and once for a good one', async () => {
    const token = await linkFor('password');
    hashes = 0;
    await expect(
      resetPassword(deps, visitor, { token: 'made-up', password: 'new secret 1' }),
    ).rejects.toMatchObject({
      code: 'LINK_INVALID',
    });
    await expect(resetPosPin(deps, visitor, { token, pin: '123456' })).rejects.toMatchObject({
      code: 'LINK_INVALID',
    });
    expect(hashes).toBe(0);
    await resetPassword(deps, visitor, { token, password: 'new secret 1' });
    expect(hashes).toBe(1);
    await expect(resetPassword(deps, visitor, { token, password: 'new secret 2' })).rejects.toMatchObject({
      code: 'LINK_USED',
    });
    expect(hashes).toBe(1);

    const pinToken = await linkFor('pos_pin');
    await resetPosPin(deps, visitor, { token: pinToken, pin: '654321' });
    expect(hashes).toBe(2);
  });
});
