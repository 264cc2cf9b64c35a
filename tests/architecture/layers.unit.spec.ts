import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The layering of ARCHITECTURE.md and STYLE.md ("In this house"), checked on the source text so a new file cannot
 * quietly break it: routes are adapters (no SQL, no kysely), one error handler answers every refusal, contracts are
 * zod only, and nothing below api/ calls back into it.
 */

const root = path.resolve(import.meta.dirname, '..', '..');

function sourceFiles(dir: string): string[] {
  const found: string[] = [];
  const walk = (at: string) => {
    for (const name of readdirSync(at)) {
      const full = path.join(at, name);
      if (name === 'node_modules' || name === 'dist') continue;
      if (statSync(full).isDirectory()) walk(full);
      else if (/\.tsx?$/.test(name)) found.push(full);
    }
  };
  walk(path.join(root, dir));
  return found.map((file) => path.relative(root, file).split(path.sep).join('/'));
}

const text = (file: string) => readFileSync(path.join(root, file), 'utf8');

/** Every module a file imports or re-exports from (static, type-only and dynamic). */
function importsOf(file: string): string[] {
  const source = text(file);
  const specifiers = [
    ...source.matchAll(/^\s*(?:import|export)\s[^;]*?\sfrom\s+'([^']+)'/gms),
    ...source.matchAll(/^\s*import\s+'([^']+)'/gm),
    ...source.matchAll(/\bimport\(\s*'([^']+)'\s*\)/g),
  ];
  return specifiers.map((match) => match[1]!);
}

/** Plain reference-data CRUD may keep its SQL in one module per resource (STYLE.md): `<resource>.data.ts`. */
const isRoute = (file: string) =>
  file.startsWith('api/') && !file.startsWith('api/contracts/') && !file.endsWith('.data.ts');

const LOWER_LAYERS = ['domain', 'commands', 'projections', 'workflows', 'infra', 'integrations'];

describe('the layers', () => {
  const apiFiles = sourceFiles('api');

  it('keeps route files free of kysely and SQL: they parse, call one command or query, and answer', () => {
    const offenders = apiFiles.filter(isRoute).flatMap((file) => {
      const found: string[] = [];
      if (importsOf(file).some((from) => from === 'kysely' || from.startsWith('kysely/')))
        found.push(`${file}: imports kysely`);
      if (/\.(selectFrom|insertInto|updateTable|deleteFrom)\(|\bsql`/.test(text(file)))
        found.push(`${file}: queries the database`);
      return found;
    });
    expect(offenders).toEqual([]);
  });

  it('answers every refusal in one handler: no instanceof DomainError and no refusal mapper elsewhere', () => {
    const everywhere = ['api', ...LOWER_LAYERS, 'web/src'].flatMap(sourceFiles);
    const offenders = everywhere.filter(
      (file) => file !== 'domain/shared/errors.ts' && /instanceof\s+DomainError\b/.test(text(file)),
    );
    expect(offenders).toEqual([]);
    expect(text('api/errors.ts')).not.toMatch(/parseInvalid|@\$\{code\}\|/);
  });

  it('keeps contracts zod only, so the console can import them', () => {
    const offenders = sourceFiles('api/contracts').flatMap((file) =>
      importsOf(file)
        .filter((from) => !(from === 'zod' || from.startsWith('./') || from.startsWith('@domain/')))
        .map((from) => `${file} imports ${from}`),
    );
    expect(offenders).toEqual([]);
  });

  it('never calls back into api/ from a lower layer (contracts, which are zod only, aside)', () => {
    const offenders = LOWER_LAYERS.flatMap(sourceFiles).flatMap((file) =>
      importsOf(file)
        .filter((from) => {
          if (from.startsWith('@api/')) return !from.startsWith('@api/contracts/');
          if (!from.startsWith('.')) return false;
          const target = path.posix.normalize(path.posix.join(path.posix.dirname(file), from));
          return target.startsWith('api/') && !target.startsWith('api/contracts/');
        })
        .map((from) => `${file} imports ${from}`),
    );
    expect(offenders).toEqual([]);
  });

  it('keeps the domain pure: it imports nothing outside domain/ but zod', () => {
    const offenders = sourceFiles('domain').flatMap((file) =>
      importsOf(file)
        .filter((from) => {
          if (from === 'zod' || from.startsWith('@domain/')) return false;
          if (from.startsWith('node:') || !from.startsWith('.')) return true;
          const target = path.posix.normalize(path.posix.join(path.posix.dirname(file), from));
          return !target.startsWith('domain/');
        })
        .map((from) => `${file} imports ${from}`),
    );
    expect(offenders).toEqual([]);
  });

  it('lets the console see the server only through contracts and the domain', () => {
    const offenders = sourceFiles('web/src').flatMap((file) =>
      importsOf(file)
        .filter(
          (from) =>
            /^@(commands|projections|workflows|infra|integrations)\//.test(from) ||
            (from.startsWith('@api/') && !from.startsWith('@api/contracts/')),
        )
        .map((from) => `${file} imports ${from}`),
    );
    expect(offenders).toEqual([]);
  });
});
