import { createHash } from 'node:crypto';
import { ListingBody, type ListingUploadResult, type ParsedListingBody } from '@api/contracts/listings';
import { ruleOf } from '@api/contracts/rules';
import {
  type FileListing,
  groupListingRows,
  LISTING_FILE_COLUMNS,
  type ListingFileColumn,
  listOf,
  MAX_LISTING_FILE_ROWS,
} from '@domain/listings/listing-file';
import { ListingCode, refuseListing } from '@domain/listings/rules';
import { type DomainError, type RefusalParams, refusalOf } from '@domain/shared/errors';
import type { Database } from '@infra/db';
import { withTenant } from '@infra/db/tenant';
import { type FileProblem, fileHash, readSheet } from '@infra/sheets/read';
import { interruptedKey } from '@projections/sheet-uploads.queries';
import type { Kysely } from 'kysely';
import type { Actor } from '../support/actor';
import {
  openUpload,
  recordRefusedUpload,
  recordUnreadableFile,
  type SentFile,
  UploadProgress,
} from '../support/sheet-uploads';
import { loadListing } from './listing';
import { saveListing } from './save-listing';
import type { ListingDeps } from './support';

/**
 * The listings bulk upload (spec §5 "Bulk upload"; issue 15; the file: domain/listings/listing-file.ts): a CSV in
 * UTF-8 without BOM, or an XLSX, one row per SKU, rows sharing a handle making one listing with variants. Each
 * listing is checked as the editor checks it — the contract's shapes, then the editor's own use case (saveListing:
 * the listing's rules, its stores, its master codes) — and saved as a draft by that use case, so there is one write
 * path. A listing with any bad row is not saved, and every problem names its row and column with its result code;
 * the others are saved all the same. Each listing's id comes from the file and its handle, so sending the same file
 * again saves nothing twice (a listing already there is counted as existing and left as it is, edits included).
 *
 * Every file is kept in the upload history (commands/support/sheet-uploads.ts): one that cannot be read failed at
 * once; one that can pending, in progress while its listings are saved, then complete — or failed when none of its
 * listings could be saved.
 */

/** A problem of a row: its result code, and the message's key and parameters. */
export interface ListingRowProblem {
  row: number;
  column: ListingFileColumn | null;
  code: number;
  key: string;
  params: RefusalParams;
}

export type ListingUpload =
  | { ok: true; result: Omit<ListingUploadResult, 'refused'>; refused: ListingRowProblem[] }
  | { ok: false; file: FileProblem | 'bom'; maxRows: number }
  | { ok: false; file?: undefined; uploadId: string; rows: ListingRowProblem[] };

const fileProblemKeys = {
  required: 'listing.upload.row.required',
  differs: 'listing.upload.row.differs',
  text_invalid: 'listing.upload.row.text_invalid',
} as const;

/** The listing's body field each file column fills, and back. */
const FIELD_COLUMNS: Record<string, ListingFileColumn> = {
  store_ids: 'stores',
  tiers: 'variant_1_name',
  variant_gallery: 'images',
  skus: 'variant_1_option',
  seller_sku: 'seller_sku',
  price: 'price',
  stock: 'stock',
  promo: 'price',
  tier_index: 'variant_1_option',
  master_code_id: 'master_code',
};

/**
 * The spec wants a CSV in UTF-8 without BOM (§5 "Bulk upload"), where the other uploads skip one (infra/sheets/read.ts):
 * a BOM is refused with its own message rather than read past.
 */
const hasBom = (file: { bytes: Buffer; filename: string }) =>
  file.filename.toLowerCase().endsWith('.csv') &&
  file.bytes[0] === 0xef &&
  file.bytes[1] === 0xbb &&
  file.bytes[2] === 0xbf;

/** A uuid from the file and the handle: the same file's listing is the same listing. */
function listingIdFor(tenantId: string, hash: string, handle: string) {
  const hex = createHash('sha256').update(`${tenantId}:${hash}:${handle.toLowerCase()}`).digest('hex');
  const variant = ((Number.parseInt(hex[16]!, 16) & 3) | 8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

export async function uploadListings(
  deps: ListingDeps,
  actor: Actor,
  input: { bytes: Buffer; filename: string },
): Promise<ListingUpload> {
  const { db } = deps;
  const { tenantId } = actor;
  const sent: SentFile = { kind: 'listing', tenantId, userId: actor.userId, ...input };
  if (hasBom(input)) {
    await recordRefusedUpload(db, sent, { total: 0, whole: { key: 'listing.upload.file.bom', params: {} } });
    return { ok: false, file: 'bom', maxRows: MAX_LISTING_FILE_ROWS };
  }
  const read = await readSheet(input.bytes, input.filename, {
    maxRows: MAX_LISTING_FILE_ROWS,
    dates: 'instant',
  });
  if (!read.ok) {
    await recordUnreadableFile(db, sent, {
      problem: read.problem,
      area: 'listing',
      maxRows: MAX_LISTING_FILE_ROWS,
    });
    return { ok: false, file: read.problem, maxRows: MAX_LISTING_FILE_ROWS };
  }
  const hash = fileHash(input.bytes);
  const grouped = groupListingRows(read.rows);
  const refused: ListingRowProblem[] = grouped.problems.map((problem) => ({
    row: problem.row,
    column: problem.column,
    code: ListingCode.uploadRows,
    key: fileProblemKeys[problem.problem],
    params: { column: problem.column },
  }));
  const stores = await storesByName(db, tenantId);
  const codes = await masterCodesByCode(
    db,
    tenantId,
    grouped.listings.flatMap((listing) => listing.skus.map((sku) => sku.masterCode)),
  );

  const progress = new UploadProgress(db, await openUpload(db, sent, read.rows.length));
  await progress.start();
  progress.failed =
    read.rows.length - grouped.listings.reduce((rows, listing) => rows + listing.skus.length, 0);
  const result: ListingUpload & { ok: true } = {
    ok: true,
    result: { upload_id: progress.id, saved: 0, existing: 0, listings: [] },
    refused,
  };
  for (const listing of grouped.listings) {
    const rows = listing.skus.length;
    const checked = bodyOf(listing, stores, codes);
    if (!checked.ok) {
      refused.push(...checked.problems);
      progress.failed += rows;
      continue;
    }
    const id = listingIdFor(tenantId, hash, listing.handle);
    const shown = { handle: listing.handle, id, row: listing.row, skus: rows };
    try {
      if ((await loadListing(deps.store, tenantId, id)).state.status !== 'none') {
        result.result.existing++;
        result.result.listings.push({ ...shown, created: false });
        progress.replayed += rows;
      } else {
        await saveListing(deps, actor, { groupId: id, body: checked.body });
        result.result.saved++;
        result.result.listings.push({ ...shown, created: true });
        progress.applied += rows;
      }
    } catch (error) {
      const refusal = refusalOf(error);
      if (!refusal) {
        await progress.fail(error, { row: listing.row, rows }, interruptedKey.listing);
        throw error;
      }
      refused.push(...refusalRows(refusal, listing));
      progress.failed += rows;
    }
    await progress.write();
  }
  refused.sort((a, b) => a.row - b.row || columnOrder(a.column) - columnOrder(b.column));
  progress.problems = refused.map(({ code: _code, ...problem }) => problem);
  const done = result.result.saved + result.result.existing;
  if (done === 0) {
    await progress.write({
      status: 'failed',
      problems: [
        {
          row: 0,
          column: null,
          key: 'listing.upload.rows_invalid',
          params: { count: new Set(refused.map((problem) => problem.row)).size },
        },
      ],
    });
    return { ok: false, uploadId: progress.id, rows: refused };
  }
  await progress.write({ status: 'complete' });
  return result;
}

const columnOrder = (column: ListingFileColumn | null) =>
  column === null ? -1 : LISTING_FILE_COLUMNS.indexOf(column);

/** The account's stores a file may name, by name (lower case) and by id; a disconnected store takes no listing. */
async function storesByName(db: Kysely<Database>, tenantId: string) {
  const rows = await withTenant(db, tenantId, (trx) =>
    trx
      .selectFrom('stores')
      .select(['id', 'name'])
      .where('tenant_id', '=', tenantId)
      .where('status', '!=', 'disconnected')
      .orderBy('created_at')
      .execute(),
  );
  const found = new Map<string, string>();
  for (const row of rows) {
    found.set(row.id, row.id);
    // Two stores of one name: the oldest, as the order upload reads a name.
    if (!found.has(row.name.toLowerCase())) found.set(row.name.toLowerCase(), row.id);
  }
  return found;
}

/** The master codes the rows name, by code (lower case): their ids. */
async function masterCodesByCode(db: Kysely<Database>, tenantId: string, named: readonly string[]) {
  const wanted = [...new Set(named.filter(Boolean).map((code) => code.toLowerCase()))];
  if (wanted.length === 0) return new Map<string, string>();
  const rows = await withTenant(db, tenantId, (trx) =>
    trx
      .selectFrom('master_codes')
      .select(['id', 'code'])
      .where('tenant_id', '=', tenantId)
      .where((eb) => eb(eb.fn('lower', ['code']), 'in', wanted))
      .execute(),
  );
  return new Map(rows.map((row) => [row.code.toLowerCase(), row.id]));
}

const numberOr = (cell: string) => (cell === '' ? undefined : Number(cell));

/**
 * The editor's body of one listing of the file, read through the editor's own contract (api/contracts/listings.ts);
 * or every problem of its rows: a store or master code the account does not have, a cell the contract refuses.
 */
function bodyOf(
  listing: FileListing,
  stores: Map<string, string>,
  codes: Map<string, string>,
): { ok: true; body: ParsedListingBody } | { ok: false; problems: ListingRowProblem[] } {
  const problems: ListingRowProblem[] = [];
  const { own } = listing;
  const storeIds = listOf(own.stores).flatMap((name) => {
    const id = stores.get(name.toLowerCase());
    if (id) return [id];
    problems.push(refusedAt(listing.row, 'stores', refuseListing('STORE_NOT_FOUND')));
    return [];
  });
  const skus = listing.skus.map((sku, index) => {
    let masterCodeId: string | null = null;
    if (sku.masterCode) {
      masterCodeId = codes.get(sku.masterCode.toLowerCase()) ?? null;
      if (!masterCodeId)
        problems.push(
          refusedAt(sku.row, 'master_code', refuseListing('MASTER_CODE_NOT_FOUND', { row: index + 1 })),
        );
    }
    return {
      seller_sku: sku.sellerSku,
      price: sku.price,
      stock: Number(sku.stock),
      tier_index: sku.tierIndex,
      master_code_id: masterCodeId,
    };
  });
  const parsed = ListingBody.safeParse({
    platform: 'shopee',
    store_ids: storeIds,
    product_name: own.product_name,
    brand: own.brand,
    model: own.model,
    category_id: own.category_id,
    description: own.description,
    condition: own.condition || undefined,
    package_length: numberOr(own.package_length),
    package_width: numberOr(own.package_width),
    package_height: numberOr(own.package_height),
    package_weight: numberOr(own.package_weight),
    logistics: listOf(own.logistics),
    images: listOf(own.images).map((url) => ({ url })),
    gtin: own.gtin || undefined,
    tiers: listing.tiers,
    skus,
    // A file names the master codes it links on purpose: it is not asked again, nor about a sync (a new draft).
    confirm_listed_master_codes: true,
  });
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const where = placeOf(listing, issue.path.map(String));
      const rule = ruleOf(issue.message);
      problems.push({
        ...where,
        ...(rule
          ? { code: rule.code, key: rule.key, params: { ...rule.params, row: where.row } }
          : {
              code: ListingCode.uploadRows,
              key: 'listing.upload.row.invalid',
              params: { column: where.column ?? '' },
            }),
      });
    }
  }
  if (problems.length > 0 || !parsed.success) return { ok: false, problems };
  return { ok: true, body: parsed.data };
}

/** The file's row and column of a body field (`skus/2/price`, `category_id`). */
function placeOf(listing: FileListing, path: readonly string[]) {
  const [field = '', index, inner] = path;
  if (field === 'skus' && index !== undefined && inner !== undefined) {
    const sku = listing.skus[Number(index)];
    return { row: sku?.row ?? listing.row, column: FIELD_COLUMNS[inner] ?? null };
  }
  if (field === 'tiers' && index !== undefined)
    return {
      row: listing.row,
      column: (Number(index) === 1 ? 'variant_2_name' : 'variant_1_name') as ListingFileColumn,
    };
  const column =
    FIELD_COLUMNS[field] ??
    ((LISTING_FILE_COLUMNS as readonly string[]).includes(field) ? (field as ListingFileColumn) : null);
  return { row: listing.row, column };
}

function refusedAt(row: number, column: ListingFileColumn | null, error: DomainError): ListingRowProblem {
  return { row, column, code: error.refusal.code, key: error.refusal.key, params: { ...error.params, row } };
}

/** The editor's refusal of a listing, each of its fields on the file's row and column it came from. */
function refusalRows(refusal: DomainError, listing: FileListing): ListingRowProblem[] {
  const fields = refusal.fields.length > 0 ? refusal.fields : [{ field: '', error: refusal }];
  return fields.map(({ field, error }) => {
    const where = placeOf(listing, field.split('/'));
    return refusedAt(where.row, where.column, error);
  });
}
