import {
  ADDRESS_DISPLAYS,
  type CompanyDetails,
  DEFAULT_DOCUMENT_SETTINGS,
  type DocumentSettings,
  DRAWN_DOCUMENTS,
  type DrawnDocument,
  FONT_SIZES,
  LOGO_POSITIONS,
  type LogoType,
  type PrintSettings,
} from '@domain/printing/settings';
import type { Database } from '@infra/db';
import type { Kysely } from 'kysely';

/**
 * An account's print settings (spec §9: logo positions hidden, top left, top right, bottom middle; address display
 * billing only, shipping only, both; font sizes small, medium, large), per document Kedai draws — invoice (INV),
 * packing list (PL), check list (CL), delivery order (DO); the air waybill (AWB) is the marketplace's own — and the
 * company details printed at the top. Absent settings are the defaults; the company name falls back to the
 * account's name, its phone and e-mail to the owner's.
 */

export interface StoredPrintSettings {
  settings: PrintSettings;
  /** What the account saved (null: nothing yet, the defaults). */
  saved: boolean;
  logo: { data: Buffer; type: LogoType } | null;
  updatedAt: Date | null;
}

const pick = <T extends string>(allowed: readonly T[], value: unknown, fallback: T): T =>
  allowed.includes(value as T) ? (value as T) : fallback;

const text = (value: unknown, fallback: string) => (typeof value === 'string' ? value : fallback);

/** The stored JSON read defensively: anything missing or unknown is the default. */
export function settingsFrom(stored: unknown, defaults: CompanyDetails): PrintSettings {
  const raw = (stored ?? {}) as { company?: Record<string, unknown>; documents?: Record<string, unknown> };
  const company = raw.company ?? {};
  const documents = {} as Record<DrawnDocument, DocumentSettings>;
  for (const document of DRAWN_DOCUMENTS) {
    const entry = (raw.documents?.[document] ?? {}) as Record<string, unknown>;
    const fallback = DEFAULT_DOCUMENT_SETTINGS[document];
    documents[document] = {
      logoPosition: pick(LOGO_POSITIONS, entry.logoPosition, fallback.logoPosition),
      addressDisplay: pick(ADDRESS_DISPLAYS, entry.addressDisplay, fallback.addressDisplay),
      fontSize: pick(FONT_SIZES, entry.fontSize, fallback.fontSize),
    };
  }
  return {
    company: {
      name: text(company.name, defaults.name) || defaults.name,
      address: text(company.address, defaults.address),
      phone: text(company.phone, defaults.phone),
      email: text(company.email, defaults.email),
      registrationNo: text(company.registrationNo, defaults.registrationNo),
    },
    documents,
  };
}

/** The company details an account has before any are saved: its name, the owner's phone and e-mail. */
export async function defaultCompany(db: Kysely<Database>, tenantId: string): Promise<CompanyDetails> {
  const tenant = await db.selectFrom('tenants').select('name').where('id', '=', tenantId).executeTakeFirst();
  const owner = await db
    .selectFrom('users')
    .select(['email', 'phone'])
    .where('tenant_id', '=', tenantId)
    .where('kind', '=', 'owner')
    .executeTakeFirst();
  return {
    name: tenant?.name ?? '',
    address: '',
    phone: owner?.phone ?? '',
    email: owner?.email ?? '',
    registrationNo: '',
  };
}

export async function loadPrintSettings(
  db: Kysely<Database>,
  tenantId: string,
): Promise<StoredPrintSettings> {
  const [row, defaults] = await Promise.all([
    db
      .selectFrom('print_settings')
      .select(['settings', 'logo', 'logo_type', 'updated_at'])
      .where('tenant_id', '=', tenantId)
      .executeTakeFirst(),
    defaultCompany(db, tenantId),
  ]);
  return {
    settings: settingsFrom(row?.settings, defaults),
    saved: row !== undefined,
    logo: row?.logo && row.logo_type ? { data: row.logo, type: row.logo_type } : null,
    updatedAt: row?.updated_at ?? null,
  };
}

/** Saves the settings (the logo is kept as it is). */
export async function savePrintSettings(
  db: Kysely<Database>,
  tenantId: string,
  userId: string,
  settings: PrintSettings,
): Promise<void> {
  const json = JSON.stringify(settings);
  await db
    .insertInto('print_settings')
    .values({ tenant_id: tenantId, settings: json, updated_by: userId })
    .onConflict((oc) =>
      oc.column('tenant_id').doUpdateSet({ settings: json, updated_by: userId, updated_at: new Date() }),
    )
    .execute();
}

/** Stores (or, with null, removes) the logo; the settings stay as they are (the defaults when none are saved). */
export async function saveLogo(
  db: Kysely<Database>,
  tenantId: string,
  userId: string,
  logo: { data: Buffer; type: LogoType } | null,
  current: PrintSettings,
): Promise<void> {
  await db
    .insertInto('print_settings')
    .values({
      tenant_id: tenantId,
      settings: JSON.stringify(current),
      logo: logo?.data ?? null,
      logo_type: logo?.type ?? null,
      updated_by: userId,
    })
    .onConflict((oc) =>
      oc.column('tenant_id').doUpdateSet({
        logo: logo?.data ?? null,
        logo_type: logo?.type ?? null,
        updated_by: userId,
        updated_at: new Date(),
      }),
    )
    .execute();
}
