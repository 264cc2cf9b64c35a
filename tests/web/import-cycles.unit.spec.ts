import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The console's modules import one another without a loop. The loop this guards against: the shell's page helpers
 * read `namespaceOf` from the route table, the route table loads every screen, every screen imports the shell's page
 * helpers (about 45 modules in one loop). Pure helpers now sit in leaf modules (`i18n/namespaces.ts`,
 * `api/query-roots.ts`, `routes/orders/aliases.ts`, `routes/orders/scan/keys.ts`) that import nothing of the screens.
 *
 * Followed: `import … from`, `export … from`, bare `import '…'`, and lazy `import('…')` too. A lazy import is how the
 * route table splits screens into chunks, but a screen reaching back to the table that lazily loads it is still a
 * loop between chunks, so lazy edges are not excused. Not followed: `import type` / `export type`, which are erased
 * (with `verbatimModuleSyntax` nothing else is).
 */

const SRC = path.resolve(import.meta.dirname, '..', '..', 'web', 'src');
const EXTENSIONS = ['.ts', '.tsx'];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return sourceFiles(full);
    return EXTENSIONS.some((ext) => name.endsWith(ext)) && !name.endsWith('.d.ts') ? [full] : [];
  });
}

/** The file a specifier names inside web/src, or undefined for a package or a module outside the console. */
function resolve(from: string, specifier: string): string | undefined {
  let base: string;
  if (specifier.startsWith('@web/')) base = path.join(SRC, specifier.slice('@web/'.length));
  else if (specifier.startsWith('.')) base = path.resolve(path.dirname(from), specifier);
  else return undefined;
  const candidates = [
    base,
    ...EXTENSIONS.map((ext) => base + ext),
    ...EXTENSIONS.map((ext) => path.join(base, `index${ext}`)),
  ];
  return candidates.find((candidate) => {
    try {
      return statSync(candidate).isFile() && EXTENSIONS.some((ext) => candidate.endsWith(ext));
    } catch {
      return false;
    }
  });
}

/**
 * `import … from '…'`, `export … from '…'` or `import '…'` at the start of a line, or an `import('…')` call anywhere;
 * the `type` keyword right after `import`/`export` marks an erased one. What sits between the keyword and `from` is
 * names, braces and commas only, so `export const …` does not match.
 */
const IMPORT =
  /^(?:import|export)\s+(type\s+)?[\w$*\s{},]*?\s*from\s*['"]([^'"]+)['"]|^import\s*['"]([^'"]+)['"]|\bimport\(\s*['"]([^'"]+)['"]\s*\)/gm;

/** The modules a file loads when it loads (see above for what is left out). */
function loadEdges(file: string): string[] {
  const edges: string[] = [];
  for (const match of readFileSync(file, 'utf8').matchAll(IMPORT)) {
    if (match[1]) continue;
    const target = resolve(file, match[2] ?? match[3] ?? match[4] ?? '');
    if (target) edges.push(target);
  }
  return edges;
}

/** Every strongly connected component of more than one module (or a module importing itself), by Tarjan. */
function cycles(graph: Map<string, string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  function visit(node: string) {
    index.set(node, next);
    low.set(node, next);
    next += 1;
    stack.push(node);
    onStack.add(node);
    for (const target of graph.get(node) ?? []) {
      if (!index.has(target)) {
        visit(target);
        low.set(node, Math.min(low.get(node)!, low.get(target)!));
      } else if (onStack.has(target)) low.set(node, Math.min(low.get(node)!, index.get(target)!));
    }
    if (low.get(node) === index.get(node)) {
      const component: string[] = [];
      let member: string | undefined;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1 || (graph.get(node) ?? []).includes(node)) found.push(component.sort());
    }
  }
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return found;
}

describe('the console’s imports', () => {
  it('form no loop', () => {
    const graph = new Map(sourceFiles(SRC).map((file) => [file, loadEdges(file)]));
    expect(graph.size).toBeGreaterThan(100);
    const loops = cycles(graph).map((component) => component.map((file) => path.relative(SRC, file)));
    expect(loops).toEqual([]);
  });
});
