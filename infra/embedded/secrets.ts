import { randomBytes } from 'node:crypto';
import { chmod, mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';

/** The embedded cluster's superuser, owner of the schema and runner of the migrations. */
export const USER = 'postgres';
/** The superuser's password of clusters made before passwords were random; such a cluster is moved off it. */
export const LEGACY_PASSWORD = 'kedai';

/**
 * Kedai's own login roles. `app`: what the API's queries run as, bound by row-level security to the request's tenant.
 * `system`: the projection engine, the reactors, the live hub, the workflow activities and the pre-sign-in lookups,
 * cross-tenant by design through a policy of its own. The tenancy migration grants them what they need.
 */
export const ROLES = { app: 'kedai_app', system: 'kedai_system' } as const;

const ClusterSecrets = z.object({
  postgres: z.string().min(16),
  kedai_app: z.string().min(16),
  kedai_system: z.string().min(16),
});
export type ClusterSecrets = z.infer<typeof ClusterSecrets>;

/** Beside the cluster's directory (initdb wants that one empty): DATA_DIR/pg → DATA_DIR/pg.secrets.json. */
export function secretsFile(dir: string): string {
  return `${dir}.secrets.json`;
}

const newPassword = () => randomBytes(24).toString('base64url');

/**
 * The cluster's passwords, made at random on first use and kept in a file only its owner may read (0600), so no
 * other local account learns them; later starts reuse them. Written whole or not at all (rename).
 */
export async function readOrCreateSecrets(dir: string): Promise<ClusterSecrets> {
  const file = secretsFile(dir);
  const stored = await readFile(file, 'utf8').then(
    (text) => ClusterSecrets.parse(JSON.parse(text)),
    (error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return undefined;
      throw new Error(`The embedded Postgres's password file ${file} cannot be read: ${error.message}`);
    },
  );
  if (stored) {
    // A copy restored from a backup may have lost its mode.
    await chmod(file, 0o600);
    return stored;
  }
  const secrets: ClusterSecrets = {
    postgres: newPassword(),
    kedai_app: newPassword(),
    kedai_system: newPassword(),
  };
  await mkdir(path.dirname(file), { recursive: true });
  const partial = `${file}.${process.pid}.tmp`;
  await writeFile(partial, `${JSON.stringify(secrets, null, 2)}\n`, { mode: 0o600 });
  await rename(partial, file);
  return secrets;
}

/** The passwords of a cluster another process started (npm start running while `npm run migrate` runs). */
export async function readSecrets(dir: string): Promise<ClusterSecrets> {
  return ClusterSecrets.parse(JSON.parse(await readFile(secretsFile(dir), 'utf8')));
}
