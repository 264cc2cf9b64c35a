import { type Kysely, sql } from 'kysely';

// Sign-in that resists guessing without locking owners out (issue 13, item 3; commands/accounts/sign-in-limits.ts):
//
// - `sign_in_throttle`: failures per subject (an account `user:<id>`, an unknown login `login:<text>`, a reset flow)
//   and client address, with the moment the next attempt of that pair may come. The sum over addresses is the
//   account's ceiling. Replaces the per-name and per-address rows of `sign_in_failures`, which keeps the sign-ups.
// - `sign_in_addresses`: the addresses an account signed in from (known good) or was unlocked for by an e-mailed
//   link; the ceiling does not stop them.
// - `sign_in_unlocks`: the e-mailed unlock links, kept as SHA-256 hashes, single use.
//
// These rows hold no tenant data (accounts are found by user id, logins and addresses are not a tenant's), so the
// tables have no tenant_id and no row-level security: the sign-in runs before any tenant is known.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE sign_in_throttle (
      subject text NOT NULL,
      address text NOT NULL,
      failures integer NOT NULL,
      last_failure_at timestamptz NOT NULL,
      blocked_until timestamptz NOT NULL,
      PRIMARY KEY (subject, address)
    )`.execute(db);
  await sql`CREATE INDEX sign_in_throttle_last_failure_idx ON sign_in_throttle (last_failure_at)`.execute(db);
  await sql`
    CREATE TABLE sign_in_addresses (
      user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
      address text NOT NULL,
      last_sign_in_at timestamptz,
      unlocked_until timestamptz,
      PRIMARY KEY (user_id, address)
    )`.execute(db);
  await sql`
    CREATE TABLE sign_in_unlocks (
      token_hash text PRIMARY KEY,
      user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
      created_at timestamptz NOT NULL,
      expires_at timestamptz NOT NULL,
      used_at timestamptz
    )`.execute(db);
  await sql`CREATE INDEX sign_in_unlocks_user_idx ON sign_in_unlocks (user_id, created_at)`.execute(db);
  await sql`DELETE FROM sign_in_failures WHERE scope <> 'signup'`.execute(db);
  await sql`ALTER TABLE sign_in_failures DROP CONSTRAINT sign_in_failures_scope_check`.execute(db);
  await sql`ALTER TABLE sign_in_failures ADD CONSTRAINT sign_in_failures_scope_check CHECK (scope = 'signup')`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE sign_in_failures DROP CONSTRAINT sign_in_failures_scope_check`.execute(db);
  await sql`
    ALTER TABLE sign_in_failures ADD CONSTRAINT sign_in_failures_scope_check
      CHECK (scope IN ('account', 'address', 'signup'))`.execute(db);
  for (const table of ['sign_in_unlocks', 'sign_in_addresses', 'sign_in_throttle']) {
    await sql`DROP TABLE ${sql.table(table)}`.execute(db);
  }
}
