import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { hashSources, ROOT } from '@infra/build/source-hash';

/**
 * The console is built by Vite into web/dist. `npm start` and the browser tests build it when its sources changed
 * since the last build (a hash of web/ sources and locales/ kept beside the build), so a fresh clone needs no extra
 * command and a second start costs nothing.
 */

export const WEB_DIR = path.join(ROOT, 'web');
export const WEB_DIST = path.join(WEB_DIR, 'dist');
const STAMP = path.join(WEB_DIST, '.source-hash');
const SOURCES = [
  path.join(WEB_DIR, 'src'),
  path.join(WEB_DIR, 'public'),
  path.join(ROOT, 'locales'),
  path.join(ROOT, 'domain'),
];
const SOURCE_FILES = ['index.html', 'vite.config.ts'].map((file) => path.join(WEB_DIR, file));

export const sourceHash = (): Promise<string> => hashSources(SOURCES, SOURCE_FILES);

/** Whether web/dist is a build of the sources as they are now. */
export async function consoleIsBuilt(): Promise<boolean> {
  const built = await readFile(STAMP, 'utf8').catch(() => '');
  return built.trim() === (await sourceHash());
}

/** Builds the console unless the last build is of the same sources; returns the directory to serve. */
export async function ensureConsoleBuilt(say: (line: string) => void = () => undefined): Promise<string> {
  const wanted = await sourceHash();
  const built = await readFile(STAMP, 'utf8').catch(() => '');
  if (built.trim() === wanted) return WEB_DIST;
  say('Building the console (web/)…');
  const { build } = await import('vite');
  await build({ configFile: path.join(WEB_DIR, 'vite.config.ts'), logLevel: 'warn' });
  await writeFile(STAMP, wanted);
  return WEB_DIST;
}
