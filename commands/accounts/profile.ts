import type { LanguageChange, PasswordChange, ProfileChanges } from '@api/contracts/profile';
import { refuseProfile } from '@domain/access/profile';
import type { Database } from '@infra/db';
import type { Kysely } from 'kysely';
import { logActivity } from '../support/activity';
import { hashSecret, verifySecret } from '../support/secrets';

/**
 * The header menu's user settings: a signed-in user (seller or admin) changes their own name and phone, password
 * and language. A new password ends the user's other sign-ins (a thief holding one is out), never the one in use.
 */

export interface Self {
  userId: string;
  tenantId: string | null;
  /** The token of this request's sign-in, which stays valid. */
  tokenHash: string;
}

type Deps = { db: Kysely<Database> };

export async function changeProfile({ db }: Deps, self: Self, changes: ProfileChanges): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx
      .updateTable('users')
      .set({ ...changes, updated_at: new Date() })
      .where('id', '=', self.userId)
      .execute();
    await logActivity(trx, {
      tenantId: self.tenantId,
      userId: self.userId,
      action: 'profile.updated',
      subjectType: 'user',
      subjectId: self.userId,
      detail: { fields: Object.keys(changes) },
    });
  });
}

export async function changePassword(
  { db }: Deps,
  self: Self,
  input: PasswordChange,
): Promise<{ signed_out_elsewhere: number }> {
  const user = await db
    .selectFrom('users')
    .select('password_hash')
    .where('id', '=', self.userId)
    .executeTakeFirstOrThrow();
  if (!(await verifySecret(user.password_hash, input.current_password))) {
    throw refuseProfile('CURRENT_PASSWORD_WRONG');
  }
  if (await verifySecret(user.password_hash, input.password)) throw refuseProfile('SAME_PASSWORD');
  const passwordHash = await hashSecret(input.password);
  return db.transaction().execute(async (trx) => {
    await trx
      .updateTable('users')
      .set({ password_hash: passwordHash, updated_at: new Date() })
      .where('id', '=', self.userId)
      .execute();
    const revoked = await trx
      .updateTable('access_tokens')
      .set({ revoked_at: new Date() })
      .where('user_id', '=', self.userId)
      .where('token_hash', '<>', self.tokenHash)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    const signedOutElsewhere = Number(revoked.numUpdatedRows);
    await logActivity(trx, {
      tenantId: self.tenantId,
      userId: self.userId,
      action: 'profile.password_changed',
      subjectType: 'user',
      subjectId: self.userId,
      detail: { signed_out_elsewhere: signedOutElsewhere },
    });
    return { signed_out_elsewhere: signedOutElsewhere };
  });
}

export async function changeLanguage({ db }: Deps, self: Self, input: LanguageChange): Promise<void> {
  await db
    .updateTable('users')
    .set({ language: input.language, updated_at: new Date() })
    .where('id', '=', self.userId)
    .execute();
}
