import type { Database } from '@infra/db';
import { type Kysely, sql } from 'kysely';

const PREFIX = { purchase: 'PO', goods_receipt: 'GRN' } as const;

/**
 * The document's number: the account's next in the kind's sequence (PO-000001, GRN-000001), or the one it was given
 * before (a retried creation). One writer per account and kind at a time.
 */
export async function documentNumber(
  db: Kysely<Database>,
  tenantId: string,
  kind: 'purchase' | 'goods_receipt',
  documentId: string,
): Promise<string> {
  const number = await db.transaction().execute(async (trx) => {
    await sql`SELECT pg_advisory_xact_lock(hashtext(${`purchase-number|${kind}|${tenantId}`}))`.execute(trx);
    const given = await trx
      .selectFrom('purchase_numbers')
      .select('number')
      .where('tenant_id', '=', tenantId)
      .where('kind', '=', kind)
      .where('document_id', '=', documentId)
      .executeTakeFirst();
    if (given) return given.number;
    const last = await trx
      .selectFrom('purchase_numbers')
      .select(sql<number>`coalesce(max(number), 0)::int`.as('last'))
      .where('tenant_id', '=', tenantId)
      .where('kind', '=', kind)
      .executeTakeFirstOrThrow();
    const next = last.last + 1;
    await trx
      .insertInto('purchase_numbers')
      .values({ tenant_id: tenantId, kind, document_id: documentId, number: next })
      .execute();
    return next;
  });
  return `${PREFIX[kind]}-${String(number).padStart(6, '0')}`;
}
