import { randomBytes, randomUUID } from 'node:crypto';
import { openStartingPlaces } from '@commands/inventory/warehouses';
import { hashSecret } from '@commands/support/secrets';
import { STANDARD_PACKAGES, TRIAL_PACKAGE } from '@domain/access/packages';
import type { Database } from '@infra/db';
import { DEFAULT_SKUS } from '@integrations/shopee';
import type { Kysely } from 'kysely';

/**
 * What a fresh installation needs before anyone can sign in: the standard packages, the provider's admin, and a
 * demo seller account whose owner can sign in at once. Passwords are random, shown once (at the first start), and
 * only their hashes are kept. The demo account starts with the master codes the Shopee sandbox's shop sells, so its
 * first orders find their items (issue 14: they were all "item not found").
 */

export async function ensurePackages(db: Kysely<Database>): Promise<void> {
  for (const pkg of STANDARD_PACKAGES) {
    await db
      .insertInto('packages')
      .values({
        id: pkg.id,
        name: pkg.name,
        limits: JSON.stringify(pkg.limits),
        flags: JSON.stringify(pkg.flags),
      })
      .onConflict((oc) => oc.column('id').doNothing())
      .execute();
  }
}

export interface NewTenant {
  tenantId?: string;
  name: string;
  country: string;
  packageId?: string;
  status: 'pending' | 'active';
  promoCode?: string | null;
  business?: Record<string, string>;
  owner: {
    email: string;
    username?: string | null;
    firstName: string;
    lastName: string;
    phone: string;
    password: string;
    language?: string;
  };
}

/** A seller account and its owner, in one transaction. Returns the ids. */
export async function createTenantWithOwner(
  db: Kysely<Database>,
  input: NewTenant,
): Promise<{ tenantId: string; userId: string }> {
  const tenantId = input.tenantId ?? randomUUID();
  const userId = randomUUID();
  const passwordHash = await hashSecret(input.owner.password);
  await db.transaction().execute(async (trx) => {
    await trx
      .insertInto('tenants')
      .values({
        id: tenantId,
        name: input.name,
        country: input.country,
        package_id: input.packageId ?? TRIAL_PACKAGE,
        status: input.status,
        promo_code: input.promoCode ?? null,
        business: JSON.stringify(input.business ?? {}),
      })
      .execute();
    await trx
      .insertInto('users')
      .values({
        id: userId,
        tenant_id: tenantId,
        kind: 'owner',
        username: input.owner.username ?? null,
        email: input.owner.email,
        first_name: input.owner.firstName,
        last_name: input.owner.lastName,
        phone: input.owner.phone,
        country: input.country,
        password_hash: passwordHash,
        status: input.status,
        language: input.owner.language ?? 'en-us',
        email_verified_at: input.status === 'active' ? new Date() : null,
      })
      .execute();
  });
  return { tenantId, userId };
}

export interface CreatedLogin {
  login: string;
  password: string;
}

export interface FirstStart {
  admin?: CreatedLogin;
  demo?: CreatedLogin & { tenantId: string };
}

const randomPassword = () => `${randomBytes(9).toString('base64url')}7`;

export const DEMO_TENANT_ID = 'demo';
export const DEMO_OWNER_EMAIL = 'demo@kedai.local';
export const ADMIN_USERNAME = 'admin';

/** Creates the admin and the demo account when they do not exist yet; says which it created, with their passwords. */
export async function ensureFirstStart(db: Kysely<Database>): Promise<FirstStart> {
  await ensurePackages(db);
  const created: FirstStart = {};
  const admin = await db.selectFrom('users').select('id').where('kind', '=', 'admin').executeTakeFirst();
  if (!admin) {
    const password = randomPassword();
    await db
      .insertInto('users')
      .values({
        id: randomUUID(),
        tenant_id: null,
        kind: 'admin',
        username: ADMIN_USERNAME,
        email: 'admin@kedai.local',
        first_name: 'Kedai',
        last_name: 'Admin',
        password_hash: await hashSecret(password),
        status: 'active',
        email_verified_at: new Date(),
      })
      .execute();
    created.admin = { login: ADMIN_USERNAME, password };
  }
  const demo = await db
    .selectFrom('tenants')
    .select('id')
    .where('id', '=', DEMO_TENANT_ID)
    .executeTakeFirst();
  if (!demo) {
    const password = randomPassword();
    const account = await createTenantWithOwner(db, {
      tenantId: DEMO_TENANT_ID,
      name: 'Kedai Demo Store',
      country: 'MY',
      packageId: 'growth',
      status: 'active',
      owner: {
        email: DEMO_OWNER_EMAIL,
        username: 'demo',
        firstName: 'Demo',
        lastName: 'Seller',
        phone: '+60123456789',
        password,
      },
    });
    await openStartingPlaces(db, account);
    await seedDemoMasterCodes(db, DEMO_TENANT_ID);
    created.demo = { login: DEMO_OWNER_EMAIL, password, tenantId: DEMO_TENANT_ID };
  }
  return created;
}

/**
 * The sandbox shop's catalogue (its SKUs, names, prices and weights) as the demo seller's master codes: an order
 * line's seller SKU (a variation's model SKU) is the code. The sandbox in turn sells the demo's master codes from
 * then on (integrations/stores/sandbox.ts), so the two stay one catalogue.
 */
export async function seedDemoMasterCodes(db: Kysely<Database>, tenantId: string): Promise<void> {
  await db
    .insertInto('master_codes')
    .values(
      DEFAULT_SKUS.map((sku) => ({
        id: randomUUID(),
        tenant_id: tenantId,
        code: sku.sku,
        name: sku.variation ? `${sku.name ?? sku.sku} (${sku.variation})` : (sku.name ?? sku.sku),
        type: 'standard',
        unit_price: String(sku.price ?? 0),
        weight_kg: String(sku.weight ?? 0),
      })),
    )
    .onConflict((oc) => oc.doNothing())
    .execute();
}
