import { TableSettings } from '@api/contracts/session';
import type { Database } from '@infra/db';
import type { Kysely } from 'kysely';

/** The user's table settings replaced; the answer is what is now stored. */
export async function saveTableSettings(
  { db }: { db: Kysely<Database> },
  actor: { userId: string },
  input: TableSettings,
): Promise<TableSettings> {
  const settings = JSON.stringify(input);
  const saved = await db
    .insertInto('table_settings')
    .values({ user_id: actor.userId, settings })
    .onConflict((oc) => oc.column('user_id').doUpdateSet({ settings, updated_at: new Date() }))
    .returning('settings')
    .executeTakeFirstOrThrow();
  return TableSettings.parse(saved.settings);
}
