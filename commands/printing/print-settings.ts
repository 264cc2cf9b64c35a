import type {
  CompanyBody,
  DocumentSettingsAnswer,
  PrintSettingsAnswer,
  PrintSettingsBody,
} from '@api/contracts/printing';
import { printErrors } from '@domain/printing/errors';
import {
  ADDRESS_DISPLAYS,
  DRAWN_DOCUMENTS,
  type DrawnDocument,
  FONT_SIZES,
  LOGO_MAX_BYTES,
  LOGO_POSITIONS,
  LOGO_TYPES,
  type LogoType,
  type PrintSettings,
} from '@domain/printing/settings';
import { refuser } from '@domain/shared/errors';
import { imageTypeOf } from '@domain/shared/images';
import type { Database } from '@infra/db';
import type { Kysely } from 'kysely';
import PDFDocument from 'pdfkit';
import { logActivity } from '../support/activity';
import type { Actor } from '../support/actor';
import { loadPrintSettings, type StoredPrintSettings, saveLogo, savePrintSettings } from './settings';

/**
 * The print settings screen's use cases (commands/printing/settings.ts stores them): read them as the console shows
 * them, change them, and upload or remove the logo (checked to be an image pdfkit can place, so a printed document
 * never fails on it).
 */

const refuse = refuser(printErrors);

function answerOf(stored: StoredPrintSettings): PrintSettingsAnswer {
  const { settings } = stored;
  const documents = {} as Record<DrawnDocument, DocumentSettingsAnswer>;
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

const companyOf = (body: CompanyBody): PrintSettings['company'] => ({
  name: body.name,
  address: body.address,
  phone: body.phone,
  email: body.email,
  registrationNo: body.registration_no,
});

function settingsOf(body: PrintSettingsBody): PrintSettings {
  const documents = {} as PrintSettings['documents'];
  for (const document of DRAWN_DOCUMENTS) {
    const entry = body.documents[document];
    documents[document] = {
      logoPosition: entry.logo_position,
      addressDisplay: entry.address_display,
      fontSize: entry.font_size,
    };
  }
  return { company: companyOf(body.company), documents };
}

/** The bytes are a PNG or JPEG pdfkit can place (its own reader, so a printed document never fails on it). */
function checkedLogo(body: unknown): { data: Buffer; type: LogoType } {
  if (!Buffer.isBuffer(body) || body.length === 0) {
    throw refuse('LOGO_INVALID');
  }
  if (body.length > LOGO_MAX_BYTES) {
    throw refuse('LOGO_TOO_LARGE', { max: LOGO_MAX_BYTES / 1024 });
  }
  const type = imageTypeOf(body);
  if (type !== 'image/png' && type !== 'image/jpeg') {
    throw refuse('LOGO_INVALID');
  }
  try {
    (new PDFDocument({ autoFirstPage: false }) as unknown as { openImage(src: Buffer): unknown }).openImage(
      body,
    );
  } catch {
    throw refuse('LOGO_INVALID');
  }
  return { data: body, type };
}

export async function printSettingsOf(db: Kysely<Database>, tenantId: string): Promise<PrintSettingsAnswer> {
  return answerOf(await loadPrintSettings(db, tenantId));
}

export async function changePrintSettings(
  db: Kysely<Database>,
  actor: Actor,
  body: PrintSettingsBody,
): Promise<PrintSettingsAnswer> {
  await savePrintSettings(db, actor.tenantId, actor.userId, settingsOf(body));
  return printSettingsOf(db, actor.tenantId);
}

/** Settings → company: the details every printed document carries; the documents' layout stays as it is. */
export async function changeCompany(
  db: Kysely<Database>,
  actor: Actor,
  body: CompanyBody,
): Promise<PrintSettingsAnswer> {
  const current = await loadPrintSettings(db, actor.tenantId);
  await savePrintSettings(db, actor.tenantId, actor.userId, {
    ...current.settings,
    company: companyOf(body),
  });
  await logActivity(db, {
    tenantId: actor.tenantId,
    userId: actor.userId,
    action: 'company.updated',
    subjectType: 'company',
    subjectId: actor.tenantId,
    detail: { fields: Object.keys(body) },
  });
  return printSettingsOf(db, actor.tenantId);
}

/** Uploads the logo (`bytes`: the request's body) or, with null, removes it. */
export async function changeLogo(
  db: Kysely<Database>,
  actor: Actor,
  bytes: unknown | null,
): Promise<PrintSettingsAnswer> {
  const logo = bytes === null ? null : checkedLogo(bytes);
  const current = await loadPrintSettings(db, actor.tenantId);
  await saveLogo(db, actor.tenantId, actor.userId, logo, current.settings);
  return printSettingsOf(db, actor.tenantId);
}

export async function printLogo(
  db: Kysely<Database>,
  tenantId: string,
): Promise<{ data: Buffer; type: LogoType }> {
  const { logo } = await loadPrintSettings(db, tenantId);
  if (!logo) throw refuse('LOGO_NOT_FOUND');
  return logo;
}
