import type { PurchaseUploadResult } from '@api/contracts/purchases';
import { logActivity } from '@commands/support/activity';
import { decide, initialState } from '@domain/purchases/purchase';
import { PURCHASE_COLUMNS } from '@domain/purchases/purchase-file';
import { refusalOf } from '@domain/shared/errors';
import type { FileProblem } from '@infra/sheets/read';
import { purchaseFileCodes } from '@projections/purchases.queries';
import { interruptedKey } from '@projections/sheet-uploads.queries';
import type { ApprovingActor as Actor } from '../support/actor';
import { eventIdFor } from '../support/ids';
import {
  openUpload,
  recordBadRows,
  recordUnreadableFile,
  type SentFile,
  UploadProgress,
} from '../support/sheet-uploads';
import { createPurchase, type PurchaseDeps } from './create-purchase';
import {
  MAX_PURCHASE_ROWS,
  type PurchaseFileOrder,
  type PurchaseFileProblem,
  parsePurchaseFile,
} from './purchase-file';

/**
 * Bulk upload of purchase orders (commands/purchases/purchase-file.ts has the format: one item a row, grouped into
 * orders by the reference column). The whole file is checked before anything is recorded: format, then every
 * supplier, warehouse and master code code against the account's (a combo or an inactive supplier is a bad row), and
 * each order against the decider (its discount, its arrival date). Any bad row: every bad row listed, nothing
 * created. A good file creates each order as a draft (pending) with its workflow. Each order's id derives from the
 * file's hash and its reference, so uploading the same file again creates nothing twice.
 *
 * Every file sent is kept in the upload history (commands/support/sheet-uploads.ts): a refused one as failed with its
 * bad rows; a good one pending, in progress while its orders are created (here, within the request: a few thousand
 * rows at most), then complete. Should creating an order fail, the upload ends failed and says to upload the file
 * again; should the process stop, the history reads it as interrupted.
 */

/** A bad row and the message that says why. */
export interface RowProblem {
  row: number;
  column: string | null;
  key: string;
  params: Record<string, string | number>;
}

/** A bulk upload's outcome: done, a file that cannot be read, or every bad row (nothing applied). */
export type SheetUpload<Result> =
  | { ok: true; result: Result }
  | { ok: false; file: FileProblem; maxRows: number }
  | { ok: false; file?: undefined; rows: RowProblem[] };

export type PurchaseUpload = SheetUpload<PurchaseUploadResult>;

const problemKeys: Record<PurchaseFileProblem, string> = {
  column_count: 'purchases.upload.row.column_count',
  required: 'purchases.upload.row.required',
  too_long: 'purchases.upload.row.too_long',
  quantity_invalid: 'purchases.quantity_invalid',
  unit_cost_invalid: 'purchases.unit_cost_invalid',
  date_invalid: 'purchases.date_invalid',
  discount_invalid: 'purchases.discount_invalid',
  differs: 'purchases.upload.row.differs',
  master_code_repeated: 'purchases.upload.row.master_code_repeated',
};

/** The column of the file a refusal of the order's own rules points at. */
const columnOfRefusal: Record<string, string> = {
  DISCOUNT_TOO_LARGE: 'discount',
  ARRIVAL_BEFORE_DATE: 'estimated_arrival',
};

/** The order as the decider would record it: refused here when it would be refused there. */
function decideProblem(order: PurchaseFileOrder): RowProblem | undefined {
  try {
    decide(
      {
        type: 'CreatePurchase',
        purchaseId: order.reference,
        poNumber: order.reference,
        reference: order.reference,
        date: order.date,
        supplierId: order.supplierCode,
        warehouseId: order.warehouseCode,
        lines: order.lines.map((line) => ({
          masterCodeId: line.masterCode.toLowerCase(),
          quantity: line.quantity,
          unitCost: line.unitCost,
        })),
        discount: order.discount,
        estimatedArrival: order.estimatedArrival,
        note: '',
        by: 'upload',
      },
      initialState,
    );
    return undefined;
  } catch (error) {
    const refusal = refusalOf(error);
    if (!refusal) throw error;
    return {
      row: order.row,
      column: columnOfRefusal[refusal.code] ?? null,
      key: refusal.refusal.key,
      params: refusal.params,
    };
  }
}

export async function uploadPurchases(
  deps: PurchaseDeps,
  actor: Actor,
  input: { bytes: Buffer; filename: string; occurredAt: string },
): Promise<PurchaseUpload> {
  const { db } = deps;
  const { tenantId } = actor;
  const sent: SentFile = {
    kind: 'purchase',
    tenantId,
    userId: actor.userId,
    filename: input.filename,
    bytes: input.bytes,
  };
  const parsed = await parsePurchaseFile(input.bytes, input.filename);
  if (!parsed.ok) {
    await recordUnreadableFile(db, sent, {
      problem: parsed.file,
      area: 'purchases',
      maxRows: MAX_PURCHASE_ROWS,
    });
    return { ok: false, file: parsed.file, maxRows: MAX_PURCHASE_ROWS };
  }
  // Every reason of every row in one answer: the format of each row, then the codes of the well-formed ones.
  const problems: RowProblem[] = parsed.problems.map((problem) => ({
    row: problem.row,
    column: problem.column ?? null,
    key: problemKeys[problem.problem],
    params: {
      row: problem.row,
      columns: PURCHASE_COLUMNS.join(', '),
      column: problem.column ?? '',
      max: problem.column === 'reference' ? 100 : 1_000_000_000,
    },
  }));

  // Every code the file names, against the account's.
  const known = await purchaseFileCodes(db, tenantId, {
    suppliers: parsed.orders.map((order) => order.supplierCode),
    warehouses: parsed.orders.map((order) => order.warehouseCode),
    masterCodes: parsed.orders.flatMap((order) => order.lines.map((line) => line.masterCode)),
  });
  const problem = (row: number, column: string, key: string, params: Record<string, string | number>) =>
    problems.push({ row, column, key, params });
  for (const order of parsed.orders) {
    const supplier = known.suppliers.get(order.supplierCode.toLowerCase());
    if (!supplier)
      problem(order.row, 'supplier_code', 'purchases.upload.row.supplier_not_found', {
        code: order.supplierCode,
      });
    else if (supplier.status !== 'active')
      problem(order.row, 'supplier_code', 'purchases.supplier_inactive', { name: supplier.name });
    if (!known.places.has(order.warehouseCode.toLowerCase()))
      problem(order.row, 'warehouse_code', 'purchases.upload.row.warehouse_not_found', {
        code: order.warehouseCode,
      });
    for (const line of order.lines) {
      const code = known.masterCodes.get(line.masterCode.toLowerCase());
      if (!code)
        problem(line.row, 'master_code', 'purchases.master_code_not_found', { code: line.masterCode });
      else if (code.type === 'combo')
        problem(line.row, 'master_code', 'purchases.combo_refused', { code: code.code });
    }
    const refused = decideProblem(order);
    if (refused) problems.push(refused);
  }
  const lines = parsed.orders.flatMap((order) => order.lines.map((line) => line.row));
  if (problems.length > 0) {
    await recordBadRows(db, sent, { rows: lines, problems, key: 'purchases.upload.rows_invalid' });
    return { ok: false, rows: problems };
  }

  /** One order of the file, created as a draft (or found, from an earlier upload of the same file). */
  const createOrder = async (order: PurchaseFileOrder) => {
    const purchaseId = eventIdFor(
      `purchase-upload:${tenantId}:${parsed.hash}:${order.reference.toLowerCase()}`,
    );
    const created = await createPurchase(deps, actor, {
      purchaseId,
      commandId: `purchase-create:${purchaseId}`,
      occurredAt: input.occurredAt,
      reference: order.reference,
      ...(order.date ? { date: order.date } : {}),
      supplier_id: known.suppliers.get(order.supplierCode.toLowerCase())!.id,
      warehouse_id: known.places.get(order.warehouseCode.toLowerCase())!.id,
      items: order.lines.map((line) => ({
        master_code_id: known.masterCodes.get(line.masterCode.toLowerCase())!.id,
        quantity: line.quantity,
        unit_cost: line.unitCost,
      })),
      discount: order.discount,
      estimated_arrival: order.estimatedArrival,
      note: '',
      place: false,
    });
    return {
      replayed: created.replayed,
      id: purchaseId,
      po_number: created.poNumber,
      reference: order.reference,
    };
  };

  const progress = new UploadProgress(db, await openUpload(db, sent, lines.length));
  await progress.start();
  const made: PurchaseUploadResult = { upload_id: progress.id, created: 0, existing: 0, purchases: [] };
  for (const order of parsed.orders) {
    try {
      const { replayed, ...purchase } = await createOrder(order);
      // The history counts rows: an order is as many rows as it has items.
      if (replayed) {
        made.existing++;
        progress.replayed += order.lines.length;
      } else {
        made.created++;
        progress.applied += order.lines.length;
      }
      made.purchases.push(purchase);
      await progress.write();
    } catch (error) {
      await progress.fail(error, { row: order.row, rows: order.lines.length }, interruptedKey.purchase);
      throw error;
    }
  }
  await progress.write({ status: 'complete' });
  await logActivity(db, {
    tenantId,
    userId: actor.userId,
    action: 'purchase.uploaded',
    subjectType: 'purchase_upload',
    subjectId: parsed.hash,
    detail: { filename: input.filename, created: made.created, existing: made.existing },
  });
  return { ok: true, result: made };
}
