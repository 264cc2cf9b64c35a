import { OWN_FIGURES } from '@api/contracts/inventory-stock';
import type { Place, PlaceKind } from '@api/contracts/inventory-warehouses';
import { isUuid } from '@domain/platform/ids';
import type { Database } from '@infra/db';
import { type Kysely, sql, type Transaction } from 'kysely';

/** Reading warehouses and branches (a plain table; commands/inventory/warehouses.ts writes it). */

type Db = Kysely<Database> | Transaction<Database>;

/** A stock level `s` with any figure other than 0 (a place holds stock while any is, reserved and incoming too). */
export const holdsStock = sql<boolean>`(${sql.join(
  OWN_FIGURES.map((figure) => sql`${sql.ref(`s.${figure}`)} <> 0`),
  sql` OR `,
)})`;

/**
 * The account's places, the deleted ones included (by their last code and name), for the documents that name a
 * place: a transfer or movement keeps showing a deleted warehouse's name.
 */
export const knownPlaces = (tenantId: string) => sql`(
  SELECT id, kind, code, name FROM warehouses WHERE tenant_id = ${tenantId}
  UNION ALL SELECT id, kind, code, name FROM removed_places WHERE tenant_id = ${tenantId})`;

const selectPlaces = (db: Db, tenantId: string, kind: PlaceKind) =>
  db
    .selectFrom('warehouses as w')
    .selectAll('w')
    .select([
      sql<number>`(SELECT count(*)::int FROM racks r WHERE r.warehouse_id = w.id)`.as('rack_count'),
      sql<number>`(SELECT count(*)::int FROM stock_levels s
        WHERE s.tenant_id = w.tenant_id AND s.warehouse_id = w.id::text AND ${holdsStock})`.as(
        'master_code_count',
      ),
    ])
    .where('w.tenant_id', '=', tenantId)
    .where('w.kind', '=', kind);

type PlaceRow = Awaited<ReturnType<ReturnType<typeof selectPlaces>['executeTakeFirstOrThrow']>>;

const place = (row: PlaceRow): Place => ({
  id: row.id,
  kind: row.kind,
  code: row.code,
  name: row.name,
  manager: row.manager,
  phone: row.phone,
  address: row.address,
  location: row.location,
  is_default: row.is_default,
  use_address_on_receipt: row.use_address_on_receipt,
  use_phone_on_receipt: row.use_phone_on_receipt,
  rack_count: row.rack_count,
  master_code_count: row.master_code_count,
  created_at: row.created_at.toISOString(),
  updated_at: row.updated_at.toISOString(),
});

/** The account's places of one kind: the default first, then by name. */
export async function listPlaces(db: Db, tenantId: string, kind: PlaceKind): Promise<Place[]> {
  const rows = await selectPlaces(db, tenantId, kind)
    .orderBy('w.is_default', 'desc')
    .orderBy(sql`lower(w.name)`)
    .orderBy('w.id')
    .execute();
  return rows.map(place);
}

/** One place of this kind, or undefined (an id that is not a uuid is nobody's). */
export async function placeById(
  db: Db,
  tenantId: string,
  kind: PlaceKind,
  id: string,
): Promise<Place | undefined> {
  const row = isUuid(id)
    ? await selectPlaces(db, tenantId, kind).where('w.id', '=', id).executeTakeFirst()
    : undefined;
  return row && place(row);
}
