import { type Kysely, sql } from 'kysely';

// The console shell's reference data (ARCHITECTURE.md: plain tables, with an activity-log row per change):
// packages and their limits, tenants, users and groups, access tokens, sign-in failures, one-time codes and reset
// links, the mail outbox, table settings, announcements and their acknowledgements, and storefront categories.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE packages (
      id text PRIMARY KEY,
      name text NOT NULL,
      limits jsonb NOT NULL,
      flags jsonb NOT NULL DEFAULT '{}'::jsonb,
      created_at timestamptz NOT NULL DEFAULT now()
    )`.execute(db);
  await sql`
    CREATE TABLE tenants (
      id text PRIMARY KEY,
      name text NOT NULL,
      country text NOT NULL,
      package_id text NOT NULL REFERENCES packages (id),
      status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'active', 'suspended')),
      promo_code text,
      business jsonb NOT NULL DEFAULT '{}'::jsonb,
      ewallet_balance numeric(14, 2) NOT NULL DEFAULT 0,
      created_at timestamptz NOT NULL DEFAULT now()
    )`.execute(db);
  await sql`
    CREATE TABLE user_groups (
      id uuid PRIMARY KEY,
      tenant_id text NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
      name text NOT NULL,
      permissions text[] NOT NULL DEFAULT '{}',
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    )`.execute(db);
  await sql`CREATE UNIQUE INDEX user_groups_name_idx ON user_groups (tenant_id, lower(name))`.execute(db);
  await sql`
    CREATE TABLE users (
      id uuid PRIMARY KEY,
      tenant_id text REFERENCES tenants (id) ON DELETE CASCADE,
      kind text NOT NULL CHECK (kind IN ('owner', 'subuser', 'admin', 'subadmin')),
      username text,
      email text NOT NULL,
      first_name text NOT NULL,
      last_name text NOT NULL DEFAULT '',
      phone text NOT NULL DEFAULT '',
      country text,
      password_hash text NOT NULL,
      pos_pin_hash text,
      status text NOT NULL CHECK (status IN ('pending', 'active', 'inactive')),
      group_id uuid REFERENCES user_groups (id) ON DELETE RESTRICT,
      language text NOT NULL DEFAULT 'en-us',
      email_verified_at timestamptz,
      last_sign_in_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      CHECK ((kind IN ('admin', 'subadmin')) = (tenant_id IS NULL))
    )`.execute(db);
  await sql`CREATE UNIQUE INDEX users_email_idx ON users (lower(email))`.execute(db);
  await sql`CREATE UNIQUE INDEX users_username_idx ON users (lower(username)) WHERE username IS NOT NULL`.execute(
    db,
  );
  await sql`CREATE INDEX users_tenant_idx ON users (tenant_id, kind)`.execute(db);
  await sql`
    CREATE TABLE access_tokens (
      token_hash text PRIMARY KEY,
      user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
      created_at timestamptz NOT NULL DEFAULT now(),
      expires_at timestamptz NOT NULL,
      revoked_at timestamptz,
      address text
    )`.execute(db);
  await sql`CREATE INDEX access_tokens_user_idx ON access_tokens (user_id)`.execute(db);
  // Failed sign-ins per account and per address, and sign-ups per address: what the rate limits count.
  await sql`
    CREATE TABLE sign_in_failures (
      id bigserial PRIMARY KEY,
      scope text NOT NULL CHECK (scope IN ('account', 'address', 'signup')),
      key text NOT NULL,
      at timestamptz NOT NULL DEFAULT now()
    )`.execute(db);
  await sql`CREATE INDEX sign_in_failures_key_idx ON sign_in_failures (scope, key, at)`.execute(db);
  await sql`
    CREATE TABLE email_verifications (
      user_id uuid PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
      code_hash text NOT NULL,
      expires_at timestamptz NOT NULL,
      attempts integer NOT NULL DEFAULT 0,
      sends integer NOT NULL DEFAULT 1,
      first_sent_at timestamptz NOT NULL DEFAULT now(),
      last_sent_at timestamptz NOT NULL DEFAULT now()
    )`.execute(db);
  await sql`
    CREATE TABLE reset_links (
      token_hash text PRIMARY KEY,
      user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
      purpose text NOT NULL CHECK (purpose IN ('password', 'pos_pin')),
      expires_at timestamptz NOT NULL,
      used_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now()
    )`.execute(db);
  await sql`CREATE INDEX reset_links_user_idx ON reset_links (user_id, purpose)`.execute(db);
  await sql`
    CREATE TABLE mail_outbox (
      id bigserial PRIMARY KEY,
      recipient text NOT NULL,
      subject text NOT NULL,
      body text NOT NULL,
      purpose text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      sent_at timestamptz,
      error text
    )`.execute(db);
  await sql`CREATE INDEX mail_outbox_recipient_idx ON mail_outbox (lower(recipient), id)`.execute(db);
  await sql`
    CREATE TABLE table_settings (
      user_id uuid PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
      settings jsonb NOT NULL,
      updated_at timestamptz NOT NULL DEFAULT now()
    )`.execute(db);
  await sql`
    CREATE TABLE announcements (
      id uuid PRIMARY KEY,
      subject text NOT NULL,
      content text NOT NULL,
      start_at timestamptz NOT NULL,
      end_at timestamptz NOT NULL,
      priority integer NOT NULL,
      is_active boolean NOT NULL,
      requires_ack boolean NOT NULL,
      country text,
      prompt boolean NOT NULL,
      created_by uuid REFERENCES users (id) ON DELETE SET NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    )`.execute(db);
  await sql`
    CREATE TABLE announcement_acks (
      announcement_id uuid NOT NULL REFERENCES announcements (id) ON DELETE CASCADE,
      user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
      status integer NOT NULL CHECK (status IN (100, 110, 120)),
      dont_show_again boolean NOT NULL DEFAULT false,
      updated_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (announcement_id, user_id)
    )`.execute(db);
  await sql`
    CREATE TABLE categories (
      id uuid PRIMARY KEY,
      tenant_id text NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
      platform text NOT NULL,
      name text NOT NULL,
      parent_id uuid REFERENCES categories (id) ON DELETE CASCADE,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    )`.execute(db);
  await sql`CREATE INDEX categories_tenant_idx ON categories (tenant_id, platform, parent_id)`.execute(db);
  await sql`
    CREATE TABLE activity_log (
      id bigserial PRIMARY KEY,
      tenant_id text,
      user_id uuid,
      action text NOT NULL,
      subject_type text NOT NULL,
      subject_id text NOT NULL,
      detail jsonb NOT NULL DEFAULT '{}'::jsonb,
      at timestamptz NOT NULL DEFAULT now()
    )`.execute(db);
  await sql`CREATE INDEX activity_log_tenant_idx ON activity_log (tenant_id, at)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of [
    'activity_log',
    'categories',
    'announcement_acks',
    'announcements',
    'table_settings',
    'mail_outbox',
    'reset_links',
    'email_verifications',
    'sign_in_failures',
    'access_tokens',
    'users',
    'user_groups',
    'tenants',
    'packages',
  ]) {
    await sql`DROP TABLE ${sql.table(table)}`.execute(db);
  }
}
