import type { Database } from '@infra/db';
import { type Kysely, sql, type Transaction } from 'kysely';

/**
 * The account's records by id, as event-sourced documents (transfers, goods issue notes, purchases, stock
 * movements) name them in their answers and check them in their commands: warehouses and branches, master codes
 * and people. Another account's id, and anything that is not a uuid, is simply missing.
 */

type Db = Kysely<Database> | Transaction<Database>;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The uuids among `ids`, lower case, once each: anything else is an id nobody has. */
const uuidsOf = (ids: Iterable<string | null>) => [
  ...new Set(
    [...ids].filter((id): id is string => id !== null && UUID.test(id)).map((id) => id.toLowerCase()),
  ),
];

/** A warehouse or branch of the account; undefined for another account's or an unknown id. */
export async function placeOfTenant(db: Db, tenantId: string, id: string) {
  if (!UUID.test(id)) return undefined;
  return db
    .selectFrom('warehouses')
    .select(['id', 'code', 'name', 'kind'])
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id.toLowerCase())
    .executeTakeFirst();
}

/** The account's warehouses and branches among `ids`, by id. */
export async function placesOfTenant(db: Db, tenantId: string, ids: Iterable<string>) {
  const wanted = uuidsOf(ids);
  const rows = wanted.length
    ? await db
        .selectFrom('warehouses')
        .select(['id', 'code', 'name', 'kind'])
        .where('tenant_id', '=', tenantId)
        .where('id', 'in', wanted)
        .execute()
    : [];
  return new Map(rows.map((row) => [row.id, row]));
}

/** A master code of the account (inactive ones too); undefined for another account's or an unknown id. */
export async function masterCodeOfTenant(db: Db, tenantId: string, id: string) {
  if (!UUID.test(id)) return undefined;
  return db
    .selectFrom('master_codes')
    .select(['id', 'code', 'name', 'type', 'status'])
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id.toLowerCase())
    .executeTakeFirst();
}

export interface MasterCodeName {
  id: string;
  code: string;
  name: string;
  type: 'standard' | 'combo';
}

/** The account's master codes among `ids`, by id (the rest are another account's, or not master codes at all). */
export async function masterCodesOfTenant(
  db: Db,
  tenantId: string,
  ids: Iterable<string>,
): Promise<Map<string, MasterCodeName>> {
  const wanted = uuidsOf(ids);
  const rows = wanted.length
    ? await db
        .selectFrom('master_codes')
        .select(['id', 'code', 'name', 'type'])
        .where('tenant_id', '=', tenantId)
        .where(sql<boolean>`id = ANY(${wanted}::uuid[])`)
        .execute()
    : [];
  return new Map(rows.map((row) => [row.id, row]));
}

/** The names of the account's users among `ids` ("first last", or the email when both are empty). */
export async function userNames(
  db: Db,
  tenantId: string,
  ids: Iterable<string | null>,
): Promise<Map<string, string>> {
  const wanted = uuidsOf(ids);
  const rows = wanted.length
    ? await db
        .selectFrom('users')
        .select(['id', 'first_name', 'last_name', 'email'])
        .where('tenant_id', '=', tenantId)
        .where('id', 'in', wanted)
        .execute()
    : [];
  return new Map(rows.map((row) => [row.id, `${row.first_name} ${row.last_name}`.trim() || row.email]));
}
