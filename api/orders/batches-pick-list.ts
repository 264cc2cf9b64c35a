import { Ok, ok, refusals } from '@api/answers';
import { seller } from '@api/auth/session';
import { invalid, notFound } from '@api/errors';
import { type Language, translate } from '@api/i18n';
import { IdParams } from '@api/ids';
import { openPdf, A4 as PAGE, tableHeader, tableRow, writeLine as write } from '@api/pdf';
import { loadBatch } from '@commands/batches/batch';
import {
  buildPickList,
  locationKey,
  PICK_LIST_FILTERS,
  type PickList,
  type PickListFilter,
  type PickOrder,
} from '@domain/batches/pick-list';
import type { Database } from '@infra/db';
import { withTenant } from '@infra/db/tenant';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import { BATCH_KEY, type BatchDeps, batchIdOf, batchTags as tags, userNames } from './batches-common';

/**
 * A batch's pick list (domain/batches/pick-list.ts; spec §9 batch item filters item, SKU, single, multiple, all):
 * the quantities to pick per master code (or seller SKU, or order line) with the racks they are kept on, as JSON for
 * the console and as a PDF to print (A4, labels in the caller's language, text in any script in its Noto font, as the
 * barcode labels find theirs: commands/printing/labels.ts). Orders of the batch that were cancelled or trashed since are
 * left out: nobody should pick them.
 */

const LEFT_OUT = ['cancelled', 'trash', 'refunded', 'returned'];

const filterInvalid = invalid(400, 'batch.pick_filter_invalid');
const PickQuery = z.strictObject({
  filter: z.enum(PICK_LIST_FILTERS, { error: filterInvalid }).default('item'),
});

const PickRowAnswer = z.object({
  key: z.string(),
  master_code_id: z.string().nullable(),
  code: z.string().nullable(),
  seller_sku: z.string(),
  name: z.string(),
  quantity: z.number().int(),
  order_count: z.number().int(),
  order_numbers: z.array(z.string()),
  locations: z.array(z.string()),
  order_number: z.string().nullable(),
  tracking_number: z.string().nullable(),
});

const PickListAnswer = z.object({
  batch: z.object({
    id: z.string(),
    label: z.string(),
    name: z.string(),
    date: z.string(),
    picker: z.string().nullable(),
  }),
  filter: z.enum(PICK_LIST_FILTERS),
  rows: z.array(PickRowAnswer),
  total_quantity: z.number().int(),
  order_count: z.number().int(),
});
type PickListAnswer = z.infer<typeof PickListAnswer>;

/** The pick list of the batch's orders, from the order board's read model and the master codes' rack locations. */
export async function pickListOf(
  db: Kysely<Database>,
  tenantId: string,
  orderIds: readonly string[],
  filter: PickListFilter,
): Promise<PickList> {
  if (orderIds.length === 0) return buildPickList([], filter, new Map(), new Map());
  const { orders, lines } = await withTenant(db, tenantId, async (trx) => ({
    orders: await trx
      .selectFrom('orders')
      .select(['id', 'order_number', 'tracking_number', 'warehouse_id', 'status'])
      .where('tenant_id', '=', tenantId)
      .where('id', 'in', [...orderIds])
      .where('status', 'not in', LEFT_OUT)
      .execute(),
    lines: await trx
      .selectFrom('order_lines')
      .select(['order_id', 'line_id', 'master_code_id', 'sku', 'seller_sku', 'name', 'variation', 'quantity'])
      .where('tenant_id', '=', tenantId)
      .where('order_id', 'in', [...orderIds])
      .where('removed', '=', false)
      .orderBy('order_id')
      .orderBy('position')
      .execute(),
  }));
  const linesOf = new Map<string, PickOrder['lines']>();
  for (const line of lines) {
    const list = linesOf.get(line.order_id) ?? [];
    list.push({
      lineId: line.line_id,
      masterCodeId: line.master_code_id,
      sku: line.sku,
      sellerSku: line.seller_sku,
      name: line.name,
      ...(line.variation ? { variation: line.variation } : {}),
      quantity: line.quantity,
    });
    linesOf.set(line.order_id, list);
  }
  const pickOrders: PickOrder[] = orders.map((order) => ({
    orderId: order.id,
    orderNumber: order.order_number,
    trackingNumber: order.tracking_number,
    warehouseId: order.warehouse_id,
    lines: linesOf.get(order.id) ?? [],
  }));
  const masterIds = [...new Set(lines.flatMap((line) => (line.master_code_id ? [line.master_code_id] : [])))];
  const warehouses = [...new Set(orders.map((order) => order.warehouse_id))];
  const [masters, places] = masterIds.length
    ? await Promise.all([
        db
          .selectFrom('master_codes')
          .select(['id', 'code', 'name'])
          .where('tenant_id', '=', tenantId)
          .where('id', 'in', masterIds)
          .execute(),
        db
          .selectFrom('master_code_locations as l')
          .leftJoin('racks as r', (join) =>
            join.onRef('r.id', '=', 'l.rack_id').onRef('r.tenant_id', '=', 'l.tenant_id'),
          )
          .select(['l.master_code_id', 'l.warehouse_id', 'r.name as rack', 'l.note'])
          .where('l.tenant_id', '=', tenantId)
          .where('l.master_code_id', 'in', masterIds)
          .where('l.warehouse_id', 'in', warehouses)
          .execute(),
      ])
    : [[], []];
  const locations = new Map<string, string[]>();
  for (const place of places) {
    const name = place.rack ?? place.note;
    if (!name) continue;
    const key = locationKey(place.master_code_id, place.warehouse_id);
    locations.set(key, [...(locations.get(key) ?? []), name]);
  }
  return buildPickList(
    pickOrders,
    filter,
    new Map(masters.map((row) => [row.id, { code: row.code, name: row.name }])),
    locations,
  );
}

// ---- the PDF ----

const MARGIN = 36;

const COLUMNS = [
  { key: 'no', x: MARGIN, width: 22, align: 'left' },
  { key: 'location', x: MARGIN + 24, width: 80, align: 'left' },
  { key: 'code', x: MARGIN + 108, width: 90, align: 'left' },
  { key: 'sku', x: MARGIN + 202, width: 90, align: 'left' },
  { key: 'name', x: MARGIN + 296, width: 150, align: 'left' },
  { key: 'quantity', x: MARGIN + 490, width: 40, align: 'right' },
  { key: 'orders', x: PAGE.width - MARGIN, width: 50, align: 'right' },
] as const;

export async function renderPickListPdf(list: PickListAnswer, language: Language): Promise<Buffer> {
  const label = (key: string, params: Record<string, string | number> = {}) =>
    translate(language, `batch.pick_pdf.${key}`, params);
  const perOrder = list.filter === 'all';
  const heading = (key: (typeof COLUMNS)[number]['key']) =>
    key === 'orders' && perOrder ? label('order') : label(key);
  const texts = [
    label('title'),
    label(`filter_${list.filter}`),
    ...COLUMNS.map((column) => heading(column.key)),
    list.batch.label,
    list.batch.name,
    list.batch.picker ?? '',
    ...list.rows.flatMap((row) => [
      row.name,
      row.code ?? '',
      row.seller_sku,
      ...row.locations,
      row.order_number ?? '',
    ]),
  ];
  const { doc, finished } = await openPdf({
    margin: MARGIN,
    title: `${label('title')} ${list.batch.label}`,
    texts,
  });

  const right = PAGE.width - MARGIN;
  doc.addPage({ size: 'A4', margin: MARGIN });
  doc.fillColor('black');
  write(doc, label('title'), MARGIN, MARGIN, { size: 18 });
  write(doc, list.batch.label, right, MARGIN, { size: 14, align: 'right' });
  write(doc, list.batch.name, right, MARGIN + 20, { align: 'right', width: 250 });
  let y = MARGIN + 40;
  write(doc, `${label('date')}: ${list.batch.date}`, MARGIN, y);
  write(doc, `${label('picker')}: ${list.batch.picker ?? '-'}`, MARGIN + 180, y, { width: 200 });
  y += 14;
  write(doc, `${label('filter')}: ${label(`filter_${list.filter}`)}`, MARGIN, y);
  write(doc, label('totals', { orders: list.order_count, quantity: list.total_quantity }), MARGIN + 180, y, {
    width: right - MARGIN - 180,
  });
  y += 26;
  y = tableHeader(doc, COLUMNS, heading, y, MARGIN, right);
  list.rows.forEach((row, index) => {
    if (y > PAGE.height - MARGIN - 20) {
      doc.addPage({ size: 'A4', margin: MARGIN });
      y = tableHeader(doc, COLUMNS, heading, MARGIN, MARGIN, right);
    }
    const cells: Record<(typeof COLUMNS)[number]['key'], string> = {
      no: String(index + 1),
      location: row.locations.join(', '),
      code: row.code ?? '',
      sku: row.seller_sku,
      name: row.name,
      quantity: String(row.quantity),
      orders: perOrder ? (row.order_number ?? '') : String(row.order_count),
    };
    tableRow(doc, COLUMNS, cells, y);
    // A box to tick when picked.
    y += 14;
    doc
      .moveTo(MARGIN, y - 2)
      .lineTo(right, y - 2)
      .lineWidth(0.25)
      .strokeColor('#cccccc')
      .stroke()
      .strokeColor('black');
  });
  doc.end();
  return finished;
}

// ---- routes ----

export const batchPickListRoutes: FastifyPluginAsyncZod<BatchDeps> = async (app, deps) => {
  const { db, store } = deps;

  async function answerOf(tenantId: string, id: string, filter: PickListFilter): Promise<PickListAnswer> {
    const batchId = batchIdOf(id);
    const { state } = await loadBatch(store, tenantId, batchId);
    if (state.status === 'none') throw notFound();
    const list = await pickListOf(db, tenantId, state.orderIds, filter);
    const names = await userNames(db, tenantId, [state.pickerId]);
    return {
      batch: {
        id: state.batchId,
        label: state.label,
        name: state.name,
        date: state.date,
        picker: state.pickerId ? (names.get(state.pickerId) ?? null) : null,
      },
      filter,
      rows: list.rows.map((row) => ({
        key: row.key,
        master_code_id: row.masterCodeId,
        code: row.code,
        seller_sku: row.sellerSku,
        name: row.name,
        quantity: row.quantity,
        order_count: row.orderCount,
        order_numbers: row.orderNumbers,
        locations: row.locations,
        order_number: row.orderNumber,
        tracking_number: row.trackingNumber,
      })),
      total_quantity: list.totalQuantity,
      order_count: list.orderCount,
    };
  }

  app.get(
    '/api/orders/batches/:id/pick-list',
    {
      config: { access: { permission: BATCH_KEY } },
      schema: {
        tags,
        summary:
          'The batch pick list: filter item (per master code), sku (per seller SKU), single (orders of one item), multiple (orders of several items) or all (per order line), with rack locations, in rack order',
        params: IdParams,
        querystring: PickQuery,
        response: { 200: Ok(PickListAnswer), ...refusals },
      },
    },
    async (request) =>
      ok(request, await answerOf(seller(request).tenantId, request.params.id, request.query.filter)),
  );

  app.get(
    '/api/orders/batches/:id/pick-list.pdf',
    {
      config: { access: { permission: BATCH_KEY } },
      schema: {
        tags,
        summary: "The batch pick list as a PDF to print (labels in the caller's language)",
        params: IdParams,
        querystring: PickQuery,
        response: {
          200: {
            description: 'The pick list; `content-disposition: inline; filename="pick-list-<label>.pdf"`',
            content: { 'application/pdf': { schema: z.any().meta({ type: 'string', format: 'binary' }) } },
          },
          ...refusals,
        },
      },
    },
    async (request, reply) => {
      const answer = await answerOf(seller(request).tenantId, request.params.id, request.query.filter);
      const pdf = await renderPickListPdf(answer, request.language);
      const name = answer.batch.label.replace(/[^\w-]/g, '_');
      return reply
        .code(200)
        .header('content-type', 'application/pdf')
        .header('cache-control', 'no-store')
        .header('content-disposition', `inline; filename="pick-list-${name}.pdf"`)
        .send(pdf);
    },
  );
};
