import { randomUUID } from 'node:crypto';
import {
  type MasterCodeChanges,
  type MasterCodeDetail,
  type NewMasterCode,
  PRICE_CURRENCIES,
  type PriceList,
} from '@api/contracts/inventory-master-codes';
import { type LinkDeps, relinkChannelSkus } from '@commands/channels/channel-skus';
import { refuseMasterCode } from '@domain/inventory/reference';
import { isUuid } from '@domain/platform/ids';
import { type FieldRefusal, refusedTogether } from '@domain/shared/errors';
import type { Database, InventoryCurrency } from '@infra/db';
import { violation } from '@infra/db/errors';
import { isBound, masterCodeById } from '@projections/inventory/master-codes';
import type { Kysely, Transaction } from 'kysely';
import { logActivity } from '../support/activity';
import type { Actor } from '../support/actor';
import { lockTenant } from '../support/locks';
import type { InitialStock } from './initial-stock';
import { imageFieldsOf } from './master-code-images';
import { packageLimit } from './reference-support';

/**
 * Writing master codes (spec §3; projections/inventory/master-codes.ts reads them): creation within the package's
 * master-code limit, the references a body names, the price list.
 */

PRICE_CURRENCIES satisfies readonly InventoryCurrency[];

type Db = Kysely<Database> | Transaction<Database>;

const referenceTables = {
  category_id: { table: 'inventory_categories', error: 'CATEGORY_NOT_FOUND' },
  brand_id: { table: 'brands', error: 'BRAND_NOT_FOUND' },
  unit_id: { table: 'units', error: 'UNIT_NOT_FOUND' },
} as const;
type ReferenceField = keyof typeof referenceTables;

const referenceMissing = (field: ReferenceField) => refuseMasterCode(referenceTables[field].error);

/**
 * A new code must be free (the unique index still decides a race), and each category, brand and unit the body names
 * must be the tenant's own; another tenant's is simply missing. Every problem is refused in the same answer.
 */
async function checkBody(
  db: Db,
  tenantId: string,
  body: Partial<Record<ReferenceField, string | null>> & { code?: string | undefined },
  /** The master code being changed, which may keep its own code in another case. */
  self?: string,
): Promise<void> {
  const problems: FieldRefusal[] = [];
  const { code } = body;
  if (code !== undefined) {
    let sameCode = db
      .selectFrom('master_codes')
      .select('id')
      .where('tenant_id', '=', tenantId)
      .where((eb) => eb(eb.fn('lower', ['code']), '=', code.toLowerCase()));
    if (self !== undefined) sameCode = sameCode.where('id', '!=', self);
    const taken = await sameCode.executeTakeFirst();
    if (taken) problems.push({ field: 'code', error: refuseMasterCode('CODE_TAKEN', { code }) });
  }
  for (const field of Object.keys(referenceTables) as ReferenceField[]) {
    const id = body[field];
    if (id === undefined || id === null) continue;
    const found = isUuid(id)
      ? await db
          .selectFrom(referenceTables[field].table)
          .select('id')
          .where('id', '=', id)
          .where('tenant_id', '=', tenantId)
          .executeTakeFirst()
      : undefined;
    if (!found) problems.push({ field, error: referenceMissing(field) });
  }
  const refused = refusedTogether(problems);
  if (refused) throw refused;
}

/** Turns a unique or foreign-key violation into the refusal it means; anything else is passed on. */
export function masterCodeRefusal(error: unknown, code: string | undefined): unknown {
  if (violation(error, '23505', 'master_codes_code_idx')) {
    return refuseMasterCode('CODE_TAKEN', { code: code ?? '' });
  }
  // A category, brand or unit deleted between the check and the write.
  if (violation(error, '23503')) {
    const constraint = String((error as { constraint?: unknown }).constraint ?? '');
    if (constraint.includes('category')) return referenceMissing('category_id');
    if (constraint.includes('brand')) return referenceMissing('brand_id');
    if (constraint.includes('unit')) return referenceMissing('unit_id');
  }
  return error;
}

export async function replacePrices(
  trx: Db,
  tenantId: string,
  masterCodeId: string,
  prices: PriceList,
): Promise<void> {
  await trx
    .deleteFrom('master_code_prices')
    .where('tenant_id', '=', tenantId)
    .where('master_code_id', '=', masterCodeId)
    .execute();
  if (prices.length > 0) {
    await trx
      .insertInto('master_code_prices')
      .values(
        prices.map((price) => ({
          tenant_id: tenantId,
          master_code_id: masterCodeId,
          currency: price.currency,
          unit_price: price.unit_price,
        })),
      )
      .execute();
  }
}

/**
 * Creates a master code within the package's master-code limit (every master code counts, active or not), then lets
 * the caller add to it in the same transaction (a combo's items). Answers the new id.
 */
export async function createMasterCode(
  deps: LinkDeps,
  actor: Actor,
  body: NewMasterCode,
  inSameTransaction?: (trx: Transaction<Database>, id: string) => Promise<Record<string, unknown>>,
): Promise<string> {
  const { tenantId } = actor;
  const id = randomUUID();
  try {
    await deps.db.transaction().execute(async (trx) => {
      // One creation at a time per account, so two requests cannot both take the last free slot.
      await lockTenant(trx, tenantId);
      const pkg = await packageLimit(trx, tenantId, 'masterCodes');
      if (pkg.limit !== null) {
        const count = await trx
          .selectFrom('master_codes')
          .select((eb) => eb.fn.countAll<string>().as('n'))
          .where('tenant_id', '=', tenantId)
          .executeTakeFirstOrThrow();
        if (Number(count.n) >= pkg.limit) {
          throw refuseMasterCode('LIMIT_REACHED', { package: pkg.name, limit: pkg.limit });
        }
      }
      await checkBody(trx, tenantId, body);
      const { prices, ...row } = await imageFieldsOf(trx, tenantId, body);
      await trx
        .insertInto('master_codes')
        .values({ id, tenant_id: tenantId, ...row })
        .execute();
      await replacePrices(trx, tenantId, id, prices);
      const extra = inSameTransaction ? await inSameTransaction(trx, id) : {};
      await logActivity(trx, {
        tenantId,
        userId: actor.userId,
        action: 'master_code.created',
        subjectType: 'master_code',
        subjectId: id,
        detail: { ...row, prices, ...extra },
      });
    });
  } catch (error) {
    throw masterCodeRefusal(error, body.code);
  }
  // A store's SKU of this code or seller SKU now links to it (the order import's rule).
  await relinkChannelSkus(deps, tenantId, { sellerSkus: [body.code, body.seller_sku] });
  return id;
}

/**
 * Creates a master code and, once its row is committed, receives its initial quantity into the default warehouse
 * (once, by its id; without `initialStock` the quantity is recorded on the master code only). Answers it in full.
 */
export async function addMasterCode(
  deps: LinkDeps & { initialStock?: InitialStock | undefined },
  actor: Required<Actor>,
  body: NewMasterCode,
): Promise<MasterCodeDetail> {
  const id = await createMasterCode(deps, actor, body);
  if (body.initial_quantity > 0) await deps.initialStock?.(actor, id, body.initial_quantity, body.cost);
  return masterCodeAnswer(deps.db, actor.tenantId, id);
}

/** A master code in full as the API answers it, once written. */
export async function masterCodeAnswer(
  db: Kysely<Database>,
  tenantId: string,
  id: string,
): Promise<MasterCodeDetail> {
  const found = await masterCodeById(db, tenantId, id);
  if (!found) throw refuseMasterCode('NOT_FOUND');
  return found;
}

/** Edits a master code; a price list given replaces the whole list (the type cannot change). */
export async function changeMasterCode(
  deps: LinkDeps,
  actor: Actor,
  input: { id: string; changes: MasterCodeChanges },
): Promise<MasterCodeDetail> {
  const { tenantId } = actor;
  const { id } = input;
  const { prices, type, ...changes } = input.changes;
  let skusBefore: string[] = [];
  try {
    await deps.db.transaction().execute(async (trx) => {
      const before = isUuid(id)
        ? await trx
            .selectFrom('master_codes')
            .select(['id', 'code', 'type', 'seller_sku'])
            .where('id', '=', id)
            .where('tenant_id', '=', tenantId)
            .forUpdate()
            .executeTakeFirst()
        : undefined;
      if (!before) throw refuseMasterCode('NOT_FOUND');
      if (type !== undefined && type !== before.type) throw refuseMasterCode('TYPE_FIXED');
      const codeChanges = changes.code !== undefined && changes.code !== before.code;
      if (codeChanges && (await isBound(trx, tenantId, before.id))) throw refuseMasterCode('CODE_BOUND');
      skusBefore = [before.code, before.seller_sku];
      const { code: _code, ...references } = changes;
      await checkBody(trx, tenantId, codeChanges ? changes : references, before.id);
      const stored = await imageFieldsOf(trx, tenantId, changes);
      await trx
        .updateTable('master_codes')
        .set({ ...stored, updated_at: new Date() })
        .where('id', '=', before.id)
        .execute();
      if (prices !== undefined) await replacePrices(trx, tenantId, before.id, prices);
      await logActivity(trx, {
        tenantId,
        userId: actor.userId,
        action: 'master_code.updated',
        subjectType: 'master_code',
        subjectId: before.id,
        detail: {
          changes: { ...stored, ...(prices === undefined ? {} : { prices }) },
          ...(codeChanges ? { code: { from: before.code, to: changes.code } } : {}),
        },
      });
    });
  } catch (error) {
    throw masterCodeRefusal(error, changes.code);
  }
  // The store SKUs of its old and new code and seller SKU, and those linked to it, follow the order import's rule.
  const skusAfter = [changes.code ?? '', changes.seller_sku ?? ''];
  await relinkChannelSkus(deps, tenantId, { sellerSkus: [...skusBefore, ...skusAfter], masterCodeId: id });
  return masterCodeAnswer(deps.db, tenantId, id);
}

/** Activates or deactivates a master code (kept with its history; it can be activated again). */
export async function setMasterCodeStatus(
  deps: { db: Kysely<Database> },
  actor: Actor,
  input: { id: string; status: 'active' | 'inactive' },
): Promise<MasterCodeDetail> {
  const { id, status } = input;
  const verb = status === 'active' ? 'activate' : 'deactivate';
  await deps.db.transaction().execute(async (trx) => {
    const before = isUuid(id)
      ? await trx
          .selectFrom('master_codes')
          .select(['id', 'status'])
          .where('id', '=', id)
          .where('tenant_id', '=', actor.tenantId)
          .forUpdate()
          .executeTakeFirst()
      : undefined;
    if (!before) throw refuseMasterCode('NOT_FOUND');
    if (before.status === status) return;
    await trx
      .updateTable('master_codes')
      .set({ status, updated_at: new Date() })
      .where('id', '=', before.id)
      .execute();
    await logActivity(trx, {
      tenantId: actor.tenantId,
      userId: actor.userId,
      action: `master_code.${verb}d`,
      subjectType: 'master_code',
      subjectId: before.id,
      detail: { status: { from: before.status, to: status } },
    });
  });
  return masterCodeAnswer(deps.db, actor.tenantId, id);
}
