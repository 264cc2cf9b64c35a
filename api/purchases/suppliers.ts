import { randomUUID } from 'node:crypto';
import { logActivity } from '@api/activity';
import { ErrorAnswer, GridPage, Ok, ok, refusals } from '@api/answers';
import { seller } from '@api/auth/session';
import { gridQuery, setFilter, TextFilter } from '@api/contracts/grid';
import { ApiError, invalid, notFound } from '@api/errors';
import { type Language, translate } from '@api/i18n';
import { IdParams, isUuid } from '@api/ids';
import { UPLOAD_BODY_LIMIT, UploadQuery, UploadRefusal, uploadBody } from '@api/sheet-upload';
import {
  CONTACT_NUMBER,
  CURRENCY,
  EMAIL,
  parseSupplierFile,
  SUPPLIER_COLUMNS,
  SUPPLIER_LIMITS,
  type SupplierColumn,
  type SupplierProblem,
} from '@commands/purchases/supplier-file';
import type { Database, SupplierStatus } from '@infra/db';
import { violation } from '@infra/db/errors';
import { allOf, pageWindow, searchWhere, sortTerms, textWhere } from '@projections/runtime/grid';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { type Kysely, type RawBuilder, sql } from 'kysely';
import { z } from 'zod';
import { managing, PurchaseCode, type PurchaseDeps, requiredText, tags, text, viewing } from './common';
import { fileOf, fileRefusal, rowsRefusal, type StoredProblem } from './upload-common';

/**
 * Purchasing suppliers (spec §3 Supplier: code, company and store name, contact number, email, address, city, postal
 * code, state, country, currency, VAT number, status). A plain table; each change writes an activity-log row.
 * Purchase orders name their supplier; an inactive supplier keeps its orders and takes no new one. Required: the
 * store name ("Must fill store name"), company, contact number, address, city, postal code, state and country — the
 * same as the bulk file (commands/purchases/supplier-file.ts). A code, when given, is unique per account.
 */

export const SUPPLIER_STATUSES = ['active', 'inactive'] as const;

const contact = z
  .string({ error: invalid(PurchaseCode.supplierContactInvalid, 'purchases.supplier.contact_required') })
  .trim()
  .min(1, invalid(PurchaseCode.supplierContactInvalid, 'purchases.supplier.contact_required'))
  .regex(CONTACT_NUMBER, invalid(PurchaseCode.supplierContactInvalid, 'purchases.supplier.contact_invalid'));
const email = z
  .string({ error: invalid(PurchaseCode.supplierEmailInvalid, 'purchases.supplier.email_invalid') })
  .trim()
  .max(SUPPLIER_LIMITS.email, invalid(PurchaseCode.supplierEmailInvalid, 'purchases.supplier.email_invalid'))
  .refine(
    (value) => value === '' || EMAIL.test(value),
    invalid(PurchaseCode.supplierEmailInvalid, 'purchases.supplier.email_invalid'),
  );
const currency = z
  .string({ error: invalid(PurchaseCode.choiceInvalid, 'purchases.supplier.currency_invalid') })
  .trim()
  .transform((value) => value.toUpperCase())
  .refine(
    (value) => value === '' || CURRENCY.test(value),
    invalid(PurchaseCode.choiceInvalid, 'purchases.supplier.currency_invalid'),
  );
const status = z.enum(SUPPLIER_STATUSES, {
  error: invalid(PurchaseCode.choiceInvalid, 'purchases.supplier.status_invalid'),
});

const fields = {
  code: text(SUPPLIER_LIMITS.code),
  name: requiredText(
    SUPPLIER_LIMITS.name,
    PurchaseCode.supplierNameRequired,
    'purchases.supplier.name_required',
  ),
  company: requiredText(
    SUPPLIER_LIMITS.company,
    PurchaseCode.supplierCompanyRequired,
    'purchases.supplier.company_required',
  ),
  contact_number: contact,
  email,
  address: requiredText(
    SUPPLIER_LIMITS.address,
    PurchaseCode.supplierAddressRequired,
    'purchases.supplier.address_required',
  ),
  city: requiredText(
    SUPPLIER_LIMITS.city,
    PurchaseCode.supplierCityRequired,
    'purchases.supplier.city_required',
  ),
  postal_code: requiredText(
    SUPPLIER_LIMITS.postal_code,
    PurchaseCode.supplierPostalCodeRequired,
    'purchases.supplier.postal_code_required',
  ),
  state: requiredText(
    SUPPLIER_LIMITS.state,
    PurchaseCode.supplierStateRequired,
    'purchases.supplier.state_required',
  ),
  country: requiredText(
    SUPPLIER_LIMITS.country,
    PurchaseCode.supplierCountryRequired,
    'purchases.supplier.country_required',
  ),
  currency,
  vat_number: text(SUPPLIER_LIMITS.vat_number),
  status,
};

export const NewSupplier = z.strictObject({
  ...fields,
  code: fields.code.default(''),
  email: fields.email.default(''),
  currency: fields.currency.default(''),
  vat_number: fields.vat_number.default(''),
  status: fields.status.default('active'),
});
export const SupplierChanges = z
  .strictObject(fields)
  .partial()
  .refine(
    (changes) => Object.keys(changes).length > 0,
    invalid(PurchaseCode.textInvalid, 'purchases.nothing_to_change'),
  );

export const Supplier = z.object({
  id: z.string(),
  code: z.string(),
  name: z.string(),
  company: z.string(),
  contact_number: z.string(),
  email: z.string(),
  address: z.string(),
  city: z.string(),
  postal_code: z.string(),
  state: z.string(),
  country: z.string(),
  currency: z.string(),
  vat_number: z.string(),
  status: z.enum(SUPPLIER_STATUSES),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Supplier = z.infer<typeof Supplier>;

const SupplierOption = z.object({
  id: z.string(),
  code: z.string(),
  name: z.string(),
  company: z.string(),
  currency: z.string(),
});

const SORT_COLUMNS = [
  'code',
  'name',
  'company',
  'contact_number',
  'email',
  'city',
  'state',
  'country',
  'currency',
  'status',
  'created_at',
] as const;
const SupplierQuery = gridQuery(SORT_COLUMNS, {
  code: TextFilter,
  name: TextFilter,
  company: TextFilter,
  contact_number: TextFilter,
  city: TextFilter,
  country: TextFilter,
  status: setFilter(SUPPLIER_STATUSES),
});

type Row = Awaited<ReturnType<ReturnType<typeof selectSuppliers>['executeTakeFirstOrThrow']>>;
const selectSuppliers = (db: Kysely<Database>, tenantId: string) =>
  db.selectFrom('suppliers').selectAll().where('tenant_id', '=', tenantId);

const supplierOf = (row: Row): Supplier => ({
  id: row.id,
  code: row.code,
  name: row.name,
  company: row.company,
  contact_number: row.contact_number,
  email: row.email,
  address: row.address,
  city: row.city,
  postal_code: row.postal_code,
  state: row.state,
  country: row.country,
  currency: row.currency,
  vat_number: row.vat_number,
  status: row.status,
  created_at: row.created_at.toISOString(),
  updated_at: row.updated_at.toISOString(),
});

async function findSupplierRow(db: Kysely<Database>, tenantId: string, id: string): Promise<Row> {
  const row = isUuid(id)
    ? await selectSuppliers(db, tenantId).where('id', '=', id.toLowerCase()).executeTakeFirst()
    : undefined;
  if (!row) throw notFound();
  return row;
}

const codeTaken = (code: string) =>
  new ApiError(409, PurchaseCode.supplierCodeTaken, 'purchases.supplier.code_taken', { code });

const column = (name: string): RawBuilder<string> => sql<string>`${sql.ref(name)}`;

const problemKeys: Record<SupplierProblem, string> = {
  column_count: 'purchases.upload.row.column_count',
  required: 'purchases.upload.row.required',
  too_long: 'purchases.upload.row.too_long',
  contact_invalid: 'purchases.supplier.contact_invalid',
  email_invalid: 'purchases.supplier.email_invalid',
  currency_invalid: 'purchases.supplier.currency_invalid',
  code_repeated: 'purchases.upload.row.code_repeated',
};

const UploadResult = z.object({ created: z.number().int(), updated: z.number().int() });

/** The column's name in the caller's language, for a row message. */
const columnName = (language: Language, name: SupplierColumn) =>
  translate(language, `purchases.supplier.column.${name}`);

export const supplierRoutes: FastifyPluginAsyncZod<PurchaseDeps> = async (app, { db }) => {
  uploadBody(app);

  app.get(
    '/api/purchases/suppliers',
    {
      config: viewing,
      schema: {
        tags,
        summary: "The account's purchasing suppliers (ag-grid Infinite Row Model)",
        querystring: SupplierQuery,
        response: { 200: Ok(GridPage(Supplier)), ...refusals },
      },
    },
    async (request) => {
      const { tenantId } = seller(request);
      const query = request.query;
      const filter = query.filterModel;
      const where = [
        filter.code && textWhere(column('code'), filter.code),
        filter.name && textWhere(column('name'), filter.name),
        filter.company && textWhere(column('company'), filter.company),
        filter.contact_number && textWhere(column('contact_number'), filter.contact_number),
        filter.city && textWhere(column('city'), filter.city),
        filter.country && textWhere(column('country'), filter.country),
        filter.status && sql<boolean>`status = ANY(${filter.status.values}::text[])`,
        query.search &&
          searchWhere(
            [column('code'), column('name'), column('company'), column('contact_number'), column('email')],
            query.search,
          ),
      ].filter((part) => !!part) as RawBuilder<boolean>[];
      const order = sortTerms(
        query.sortModel,
        Object.fromEntries(SORT_COLUMNS.map((name) => [name, column(name)])) as Record<
          (typeof SORT_COLUMNS)[number],
          RawBuilder<unknown>
        >,
      );
      const { limit, offset } = pageWindow(query);
      const rows = await selectSuppliers(db, tenantId)
        .where(allOf(where))
        .orderBy(sql.join([...order, sql`lower(name) ASC`, sql`id ASC`]))
        .limit(limit)
        .offset(offset)
        .execute();
      const { count } = await db
        .selectFrom('suppliers')
        .select(sql<number>`count(*)::int`.as('count'))
        .where('tenant_id', '=', tenantId)
        .where(allOf(where))
        .executeTakeFirstOrThrow();
      return ok(request, { rows: rows.map(supplierOf), lastRow: count });
    },
  );

  app.get(
    '/api/purchases/suppliers/options',
    {
      config: viewing,
      schema: {
        tags,
        summary: 'The active suppliers, by name, for the purchase form',
        response: { 200: Ok(z.array(SupplierOption)), ...refusals },
      },
    },
    async (request) => {
      const { tenantId } = seller(request);
      const rows = await db
        .selectFrom('suppliers')
        .select(['id', 'code', 'name', 'company', 'currency'])
        .where('tenant_id', '=', tenantId)
        .where('status', '=', 'active')
        .orderBy(sql`lower(name)`)
        .orderBy('id')
        .execute();
      return ok(request, rows);
    },
  );

  app.get(
    '/api/purchases/suppliers/:id',
    {
      config: viewing,
      schema: {
        tags,
        summary: 'One supplier',
        params: IdParams,
        response: { 200: Ok(Supplier), ...refusals },
      },
    },
    async (request) =>
      ok(request, supplierOf(await findSupplierRow(db, seller(request).tenantId, request.params.id))),
  );

  app.post(
    '/api/purchases/suppliers',
    {
      config: managing,
      schema: {
        tags,
        summary: 'Add a supplier (409, code 529, when the code is taken)',
        body: NewSupplier,
        response: { 200: Ok(Supplier), ...refusals, 409: ErrorAnswer },
      },
    },
    async (request) => {
      const session = seller(request);
      const id = randomUUID();
      const body = request.body;
      try {
        await db.transaction().execute(async (trx) => {
          await trx
            .insertInto('suppliers')
            .values({ id, tenant_id: session.tenantId, ...body, created_by: session.userId })
            .execute();
          await logActivity(trx, {
            tenantId: session.tenantId,
            userId: session.userId,
            action: 'supplier.created',
            subjectType: 'supplier',
            subjectId: id,
            detail: { code: body.code, name: body.name },
          });
        });
      } catch (error) {
        if (violation(error, '23505', 'suppliers_code_idx')) throw codeTaken(body.code);
        throw error;
      }
      return ok(
        request,
        supplierOf(await findSupplierRow(db, session.tenantId, id)),
        'purchases.supplier.created',
      );
    },
  );

  app.put(
    '/api/purchases/suppliers/:id',
    {
      config: managing,
      schema: {
        tags,
        summary:
          'Change a supplier, or deactivate it (status inactive): its orders stay, it takes no new one',
        params: IdParams,
        body: SupplierChanges,
        response: { 200: Ok(Supplier), ...refusals, 409: ErrorAnswer },
      },
    },
    async (request) => {
      const session = seller(request);
      const before = await findSupplierRow(db, session.tenantId, request.params.id);
      const changes = request.body;
      try {
        await db.transaction().execute(async (trx) => {
          await trx
            .updateTable('suppliers')
            .set({ ...changes, updated_at: new Date() })
            .where('tenant_id', '=', session.tenantId)
            .where('id', '=', before.id)
            .execute();
          await logActivity(trx, {
            tenantId: session.tenantId,
            userId: session.userId,
            action:
              changes.status && changes.status !== before.status
                ? `supplier.${changes.status === 'inactive' ? 'deactivated' : 'activated'}`
                : 'supplier.updated',
            subjectType: 'supplier',
            subjectId: before.id,
            detail: Object.fromEntries(
              Object.entries(changes).map(([name, value]) => [
                name,
                { from: before[name as keyof Row], to: value },
              ]),
            ),
          });
        });
      } catch (error) {
        if (violation(error, '23505', 'suppliers_code_idx')) throw codeTaken(changes.code ?? '');
        throw error;
      }
      return ok(
        request,
        supplierOf(await findSupplierRow(db, session.tenantId, before.id)),
        'purchases.supplier.saved',
      );
    },
  );

  app.post(
    '/api/purchases/suppliers/upload',
    {
      config: managing,
      bodyLimit: UPLOAD_BODY_LIMIT,
      schema: {
        tags,
        summary:
          'Bulk supplier upload: the CSV (UTF-8 without BOM) or XLSX file as the body (?filename=), columns ' +
          `${SUPPLIER_COLUMNS.join(', ')}; a code already used updates that supplier. Any bad row: 400 (530) with every bad row, nothing applied`,
        querystring: UploadQuery,
        response: {
          200: Ok(UploadResult),
          400: UploadRefusal,
          401: ErrorAnswer,
          403: ErrorAnswer,
          413: ErrorAnswer,
          415: ErrorAnswer,
        },
      },
    },
    async (request, reply) => {
      const session = seller(request);
      const { tenantId } = session;
      const { bytes, filename } = fileOf(
        request.body,
        request.headers['content-type'],
        request.query.filename,
      );
      const parsed = await parseSupplierFile(bytes, filename);
      if (!parsed.ok) {
        if (parsed.file) throw fileRefusal(parsed.file, 5_000);
        return rowsRefusal(
          request,
          reply,
          parsed.rows.map(
            (problem): StoredProblem => ({
              row: problem.row,
              column: problem.column ?? null,
              key: problemKeys[problem.problem],
              params: {
                row: problem.row,
                columns: SUPPLIER_COLUMNS.join(', '),
                column: problem.column ? columnName(request.language, problem.column) : '',
                max: problem.column ? SUPPLIER_LIMITS[problem.column] : 0,
              },
            }),
          ),
          SUPPLIER_COLUMNS,
        );
      }
      const counts = await db.transaction().execute(async (trx) => {
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
          const status: SupplierStatus = 'active';
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
                status,
                created_by: session.userId,
              })
              .execute();
            created++;
          }
        }
        await logActivity(trx, {
          tenantId,
          userId: session.userId,
          action: 'supplier.uploaded',
          subjectType: 'supplier_upload',
          subjectId: parsed.hash,
          detail: { filename, created, updated },
        });
        return { created, updated };
      });
      return ok(request, counts, 'purchases.supplier.uploaded', counts);
    },
  );
};
