import { randomUUID } from 'node:crypto';
import type { NewSupplier, Supplier, SupplierChanges, SupplierUploadResult } from '@api/contracts/purchases';
import { logActivity } from '@commands/support/activity';
import { PurchaseCode } from '@domain/purchases/codes';
import { SUPPLIER_COLUMNS, SUPPLIER_LIMITS } from '@domain/purchases/supplier';
import { type ErrorTable, refuser } from '@domain/shared/errors';
import type { Database } from '@infra/db';
import { violation } from '@infra/db/errors';
import { type Language, translate } from '@infra/i18n';
import { supplierAnswer, supplierRow } from '@projections/suppliers.queries';
import { type Kysely, sql } from 'kysely';
import type { ApprovingActor as Actor } from '../support/actor';
import { MAX_SUPPLIER_ROWS, parseSupplierFile, type SupplierProblem } from './supplier-file';
import type { SheetUpload } from './upload-purchases';

/**
 * Writing the purchasing suppliers (a plain table; projections/suppliers.queries.ts reads it): each change with its
 * activity-log row. A code, when given, is unique per account. The bulk file adds suppliers and updates those whose
 * code it names, all or nothing.
 */

const SUPPLIER_ERRORS = ['SUPPLIER_NOT_FOUND', 'SUPPLIER_CODE_TAKEN'] as const;
export type SupplierErrorCode = (typeof SUPPLIER_ERRORS)[number];
export const supplierErrors = {
  SUPPLIER_NOT_FOUND: { status: 404, code: 404, key: 'common.no_record_found' },
  SUPPLIER_CODE_TAKEN: {
    status: 409,
    code: PurchaseCode.supplierCodeTaken,
    key: 'purchases.supplier.code_taken',
  },
} as const satisfies ErrorTable<SupplierErrorCode>;
const refuse = refuser(supplierErrors);

type Deps = { db: Kysely<Database> };

/** The account's supplier, or 404. */
export async function existingSupplier(db: Kysely<Database>, tenantId: string, id: string) {
  const row = await supplierRow(db, tenantId, id);
  if (!row) throw refuse('SUPPLIER_NOT_FOUND');
  return row;
}

/** The account's supplier as answered, or 404. */
export const supplierDetail = async (db: Kysely<Database>, tenantId: string, id: string) =>
  supplierAnswer(await existingSupplier(db, tenantId, id));

/** Adds a supplier; answers it as saved. */
export async function createSupplier(deps: Deps, actor: Actor, input: NewSupplier): Promise<Supplier> {
  const id = randomUUID();
  try {
    await deps.db.transaction().execute(async (trx) => {
      await trx
        .insertInto('suppliers')
        .values({ id, tenant_id: actor.tenantId, ...input, created_by: actor.userId })
        .execute();
      await logActivity(trx, {
        tenantId: actor.tenantId,
        userId: actor.userId,
        action: 'supplier.created',
        subjectType: 'supplier',
        subjectId: id,
        detail: { code: input.code, name: input.name },
      });
    });
  } catch (error) {
    if (violation(error, '23505', 'suppliers_code_idx'))
      throw refuse('SUPPLIER_CODE_TAKEN', { code: input.code });
    throw error;
  }
  return supplierDetail(deps.db, actor.tenantId, id);
}

/** Changes a supplier, or deactivates it (status inactive): its orders stay, it takes no new one. */
export async function updateSupplier(
  deps: Deps,
  actor: Actor,
  input: { id: string; changes: SupplierChanges },
): Promise<Supplier> {
  const before = await existingSupplier(deps.db, actor.tenantId, input.id);
  const { changes } = input;
  try {
    await deps.db.transaction().execute(async (trx) => {
      await trx
        .updateTable('suppliers')
        .set({ ...changes, updated_at: new Date() })
        .where('tenant_id', '=', actor.tenantId)
        .where('id', '=', before.id)
        .execute();
      await logActivity(trx, {
        tenantId: actor.tenantId,
        userId: actor.userId,
        action:
          changes.status && changes.status !== before.status
            ? `supplier.${changes.status === 'inactive' ? 'deactivated' : 'activated'}`
            : 'supplier.updated',
        subjectType: 'supplier',
        subjectId: before.id,
        detail: Object.fromEntries(
          Object.entries(changes).map(([name, value]) => [
            name,
            { from: before[name as keyof typeof before], to: value },
          ]),
        ),
      });
    });
  } catch (error) {
    if (violation(error, '23505', 'suppliers_code_idx'))
      throw refuse('SUPPLIER_CODE_TAKEN', { code: changes.code ?? '' });
    throw error;
  }
  return supplierDetail(deps.db, actor.tenantId, before.id);
}

const problemKeys: Record<SupplierProblem, string> = {
  column_count: 'purchases.upload.row.column_count',
  required: 'purchases.upload.row.required',
  too_long: 'purchases.upload.row.too_long',
  contact_invalid: 'purchases.supplier.contact_invalid',
  email_invalid: 'purchases.supplier.email_invalid',
  currency_invalid: 'purchases.supplier.currency_invalid',
  code_repeated: 'purchases.upload.row.code_repeated',
};

/**
 * The bulk supplier file: a code already used updates that supplier; any bad row, nothing applied (a row's message
 * names its column in the caller's `language`).
 */
export async function uploadSuppliers(
  deps: Deps,
  actor: Actor,
  input: { bytes: Buffer; filename: string; language: Language },
): Promise<SheetUpload<SupplierUploadResult>> {
  const { tenantId } = actor;
  const parsed = await parseSupplierFile(input.bytes, input.filename);
  if (!parsed.ok) {
    if (parsed.file) return { ok: false, file: parsed.file, maxRows: MAX_SUPPLIER_ROWS };
    return {
      ok: false,
      rows: parsed.rows.map(({ row, column, problem }) => ({
        row,
        column: column ?? null,
        key: problemKeys[problem],
        params: {
          row,
          columns: SUPPLIER_COLUMNS.join(', '),
          column: column ? translate(input.language, `purchases.supplier.column.${column}`) : '',
          max: column ? SUPPLIER_LIMITS[column] : 0,
        },
      })),
    };
  }
  const result = await deps.db.transaction().execute(async (trx) => {
    const codes = parsed.rows.map((row) => row.code.toLowerCase()).filter((code) => code !== '');
    const existing = codes.length
      ? await trx
          .selectFrom('suppliers')
          .select(['id', sql<string>`lower(code)`.as('key')])
          .where('tenant_id', '=', tenantId)
          .where(sql<boolean>`lower(code) = ANY(${codes}::text[])`)
          .forUpdate()
          .execute()
      : [];
    const byCode = new Map(existing.map((row) => [row.key, row.id]));
    let created = 0;
    let updated = 0;
    for (const { row: _row, ...values } of parsed.rows) {
      const id = values.code ? byCode.get(values.code.toLowerCase()) : undefined;
      if (id) {
        // Matched without regard to case: the code keeps the spelling it has.
        const { code: _code, ...changes } = values;
        await trx
          .updateTable('suppliers')
          .set({ ...changes, updated_at: new Date() })
          .where('tenant_id', '=', tenantId)
          .where('id', '=', id)
          .execute();
        updated++;
      } else {
        await trx
          .insertInto('suppliers')
          .values({
            id: randomUUID(),
            tenant_id: tenantId,
            ...values,
            status: 'active',
            created_by: actor.userId,
          })
          .execute();
        created++;
      }
    }
    await logActivity(trx, {
      tenantId,
      userId: actor.userId,
      action: 'supplier.uploaded',
      subjectType: 'supplier_upload',
      subjectId: parsed.hash,
      detail: { filename: input.filename, created, updated },
    });
    return { created, updated };
  });
  return { ok: true, result };
}
