import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';

/** The repository's root: what source paths in a hash are relative to. */
export const ROOT = path.resolve(import.meta.dirname, '..', '..');

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true }).catch(() => []);
  return entries.filter((entry) => entry.isFile()).map((entry) => path.join(entry.parentPath, entry.name));
}

/**
 * SHA-256 over every file under `dirs` and each of `files` (a missing one counts as empty), names and contents in
 * a fixed order: what a build is a build of, so it is redone only when its sources change.
 */
export async function hashSources(dirs: readonly string[], files: readonly string[] = []): Promise<string> {
  const all = [...(await Promise.all(dirs.map(filesUnder))).flat(), ...files].sort();
  const hash = createHash('sha256');
  for (const file of all) {
    hash.update(path.relative(ROOT, file));
    hash.update(await readFile(file).catch(() => Buffer.alloc(0)));
  }
  return hash.digest('hex');
}
