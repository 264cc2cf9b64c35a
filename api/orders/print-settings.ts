import { ErrorAnswer, Ok, ok, refusals } from '@api/answers';
import { seller } from '@api/auth/session';
import { ApiError, invalid, notFound } from '@api/errors';
import {
  ADDRESS_DISPLAYS,
  COMPANY_LIMITS,
  DRAWN_DOCUMENTS,
  type DrawnDocument,
  FONT_SIZES,
  imageTypeOf,
  LOGO_MAX_BYTES,
  LOGO_POSITIONS,
  LOGO_TYPES,
  type LogoType,
  loadPrintSettings,
  type PrintSettings,
  type StoredPrintSettings,
  saveLogo,
  savePrintSettings,
} from '@commands/printing/settings';
import type { Database } from '@infra/db';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Kysely } from 'kysely';
import PDFDocument from 'pdfkit';
import { z } from 'zod';
import { PRINT_SETTINGS_KEY, PrintCode, printTags as tags } from './print-common';

/**
 * The account's print settings (spec §9; commands/printing/settings.ts):
 *
 * GET    /api/orders/print-settings        → { company, documents: { INV|PL|CL|DO: { logo_position, address_display,
 *                                             font_size } }, logo: { type, bytes } | null, saved, updated_at,
 *                                             options } (any seller user)
 * PUT    /api/orders/print-settings        { company: { name, address, phone, email, registration_no },
 *                                             documents: { … every drawn document … } } (orders-customize-delivery-order)
 * PUT    /api/orders/print-settings/logo   the PNG or JPEG itself as the body, at most 512 KB (same key)
 * DELETE /api/orders/print-settings/logo   (same key)
 * GET    /api/orders/print-settings/logo   the logo image (404 when none)
 */

const settingsInvalid = invalid(PrintCode.settingsInvalid, 'printing.settings.invalid');

const DocumentSettingsBody = z.strictObject({
  logo_position: z.enum(LOGO_POSITIONS, { error: settingsInvalid }),
  address_display: z.enum(ADDRESS_DISPLAYS, { error: settingsInvalid }),
  font_size: z.enum(FONT_SIZES, { error: settingsInvalid }),
});

const companyText = (max: number) =>
  z
    .string({ error: invalid(PrintCode.companyTextTooLong, 'printing.settings.company_text', { max }) })
    .trim()
    .max(max, invalid(PrintCode.companyTextTooLong, 'printing.settings.company_text', { max }));

const SettingsBody = z.strictObject({
  company: z.strictObject(
    {
      name: companyText(COMPANY_LIMITS.name),
      address: companyText(COMPANY_LIMITS.address),
      phone: companyText(COMPANY_LIMITS.phone),
      email: companyText(COMPANY_LIMITS.email),
      registration_no: companyText(COMPANY_LIMITS.registrationNo),
    },
    { error: settingsInvalid },
  ),
  documents: z.strictObject(
    {
      INV: DocumentSettingsBody,
      PL: DocumentSettingsBody,
      CL: DocumentSettingsBody,
      DO: DocumentSettingsBody,
    },
    { error: settingsInvalid },
  ),
});
type SettingsBody = z.infer<typeof SettingsBody>;

const DocumentSettingsAnswer = z.object({
  logo_position: z.enum(LOGO_POSITIONS),
  address_display: z.enum(ADDRESS_DISPLAYS),
  font_size: z.enum(FONT_SIZES),
});

const SettingsAnswer = z.object({
  company: z.object({
    name: z.string(),
    address: z.string(),
    phone: z.string(),
    email: z.string(),
    registration_no: z.string(),
  }),
  documents: z.object({
    INV: DocumentSettingsAnswer,
    PL: DocumentSettingsAnswer,
    CL: DocumentSettingsAnswer,
    DO: DocumentSettingsAnswer,
  }),
  logo: z.object({ type: z.enum(LOGO_TYPES), bytes: z.number().int() }).nullable(),
  saved: z.boolean(),
  updated_at: z.string().nullable(),
  options: z.object({
    logo_positions: z.array(z.enum(LOGO_POSITIONS)),
    address_displays: z.array(z.enum(ADDRESS_DISPLAYS)),
    font_sizes: z.array(z.enum(FONT_SIZES)),
    logo_types: z.array(z.enum(LOGO_TYPES)),
    logo_max_bytes: z.number().int(),
  }),
});

function answerOf(stored: StoredPrintSettings): z.infer<typeof SettingsAnswer> {
  const { settings } = stored;
  const documents = {} as Record<DrawnDocument, z.infer<typeof DocumentSettingsAnswer>>;
  for (const document of DRAWN_DOCUMENTS) {
    const entry = settings.documents[document];
    documents[document] = {
      logo_position: entry.logoPosition,
      address_display: entry.addressDisplay,
      font_size: entry.fontSize,
    };
  }
  return {
    company: {
      name: settings.company.name,
      address: settings.company.address,
      phone: settings.company.phone,
      email: settings.company.email,
      registration_no: settings.company.registrationNo,
    },
    documents,
    logo: stored.logo ? { type: stored.logo.type, bytes: stored.logo.data.length } : null,
    saved: stored.saved,
    updated_at: stored.updatedAt?.toISOString() ?? null,
    options: {
      logo_positions: [...LOGO_POSITIONS],
      address_displays: [...ADDRESS_DISPLAYS],
      font_sizes: [...FONT_SIZES],
      logo_types: [...LOGO_TYPES],
      logo_max_bytes: LOGO_MAX_BYTES,
    },
  };
}

function settingsOf(body: SettingsBody): PrintSettings {
  const documents = {} as PrintSettings['documents'];
  for (const document of DRAWN_DOCUMENTS) {
    const entry = body.documents[document];
    documents[document] = {
      logoPosition: entry.logo_position,
      addressDisplay: entry.address_display,
      fontSize: entry.font_size,
    };
  }
  return {
    company: {
      name: body.company.name,
      address: body.company.address,
      phone: body.company.phone,
      email: body.company.email,
      registrationNo: body.company.registration_no,
    },
    documents,
  };
}

/** The bytes are a PNG or JPEG pdfkit can place (its own reader, so a printed document never fails on it). */
function checkedLogo(body: unknown): { data: Buffer; type: LogoType } {
  if (!Buffer.isBuffer(body) || body.length === 0) {
    throw new ApiError(400, PrintCode.logoInvalid, 'printing.settings.logo_invalid');
  }
  if (body.length > LOGO_MAX_BYTES) {
    throw new ApiError(400, PrintCode.logoTooLarge, 'printing.settings.logo_too_large', {
      max: LOGO_MAX_BYTES / 1024,
    });
  }
  const type = imageTypeOf(body);
  if (type !== 'image/png' && type !== 'image/jpeg') {
    throw new ApiError(400, PrintCode.logoInvalid, 'printing.settings.logo_invalid');
  }
  try {
    (new PDFDocument({ autoFirstPage: false }) as unknown as { openImage(src: Buffer): unknown }).openImage(
      body,
    );
  } catch {
    throw new ApiError(400, PrintCode.logoInvalid, 'printing.settings.logo_invalid');
  }
  return { data: body, type };
}

export const printSettingsRoutes: FastifyPluginAsyncZod<{ db: Kysely<Database> }> = async (app, { db }) => {
  app.addContentTypeParser(
    [...LOGO_TYPES, 'application/octet-stream'],
    { parseAs: 'buffer', bodyLimit: LOGO_MAX_BYTES * 2 },
    (_request, body, done) => done(null, body),
  );
  const managing = { access: { permission: PRINT_SETTINGS_KEY } } as const;

  app.get(
    '/api/orders/print-settings',
    {
      config: { access: 'seller' },
      schema: {
        tags,
        summary:
          'The print settings: company details, and per document the logo position, address display and font size',
        response: { 200: Ok(SettingsAnswer), ...refusals },
      },
    },
    async (request) => {
      const session = seller(request);
      return ok(request, answerOf(await loadPrintSettings(db, session.tenantId)));
    },
  );

  app.put(
    '/api/orders/print-settings',
    {
      config: managing,
      schema: {
        tags,
        summary: 'Change the print settings (the logo is kept)',
        body: SettingsBody,
        response: { 200: Ok(SettingsAnswer), ...refusals },
      },
    },
    async (request) => {
      const session = seller(request);
      await savePrintSettings(db, session.tenantId, session.userId, settingsOf(request.body));
      return ok(request, answerOf(await loadPrintSettings(db, session.tenantId)), 'printing.settings.saved');
    },
  );

  app.put(
    '/api/orders/print-settings/logo',
    {
      config: managing,
      bodyLimit: LOGO_MAX_BYTES * 2,
      schema: {
        tags,
        summary: 'Upload the logo: the PNG or JPEG itself as the body (at most 512 KB)',
        response: { 200: Ok(SettingsAnswer), ...refusals, 413: ErrorAnswer, 415: ErrorAnswer },
      },
    },
    async (request) => {
      const session = seller(request);
      const logo = checkedLogo(request.body);
      const current = await loadPrintSettings(db, session.tenantId);
      await saveLogo(db, session.tenantId, session.userId, logo, current.settings);
      return ok(
        request,
        answerOf(await loadPrintSettings(db, session.tenantId)),
        'printing.settings.logo_saved',
      );
    },
  );

  app.delete(
    '/api/orders/print-settings/logo',
    {
      config: managing,
      schema: { tags, summary: 'Remove the logo', response: { 200: Ok(SettingsAnswer), ...refusals } },
    },
    async (request) => {
      const session = seller(request);
      const current = await loadPrintSettings(db, session.tenantId);
      await saveLogo(db, session.tenantId, session.userId, null, current.settings);
      return ok(
        request,
        answerOf(await loadPrintSettings(db, session.tenantId)),
        'printing.settings.logo_removed',
      );
    },
  );

  app.get(
    '/api/orders/print-settings/logo',
    {
      config: { access: 'seller' },
      schema: {
        tags,
        summary: 'The logo image',
        response: {
          200: {
            description: 'The logo (image/png or image/jpeg)',
            content: {
              'image/png': { schema: z.any().meta({ type: 'string', format: 'binary' }) },
              'image/jpeg': { schema: z.any().meta({ type: 'string', format: 'binary' }) },
            },
          },
          ...refusals,
        },
      },
    },
    async (request, reply) => {
      const session = seller(request);
      const { logo } = await loadPrintSettings(db, session.tenantId);
      if (!logo) throw notFound();
      return reply
        .code(200)
        .header('content-type', logo.type)
        .header('cache-control', 'no-store')
        .send(logo.data);
    },
  );
};
