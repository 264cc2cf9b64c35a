import { access, mkdir, readdir, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { consoleIsBuilt, WEB_DIST } from '@infra/web/build';
import { runBuildStep } from './child';
import { hashSources, ROOT } from './source-hash';

/**
 * What `npm start` builds before it serves: the console and the workflow bundle, each only when its sources changed
 * and each in a process of its own (runBuildStep), so the API's process never holds a bundler.
 */

/** Everything the workflow bundle is made of: workflows/ and the domain code it imports, and the Temporal SDK. */
const WORKFLOW_SOURCES = [path.join(ROOT, 'workflows'), path.join(ROOT, 'domain')];
const WORKFLOW_FILES = [path.join(ROOT, 'package-lock.json')];

/** Builds the console unless web/dist is a build of its sources; returns the directory to serve. */
export async function buildConsole(say: (line: string) => void): Promise<string> {
  if (await consoleIsBuilt()) return WEB_DIST;
  say('Building the console (web/)…');
  await runBuildStep(['console']);
  return WEB_DIST;
}

/**
 * The workflow bundle of the sources as they are, in `dir/bundle-<hash>.js`: built when there is none for them (the
 * file appears whole or not at all), older ones removed. Returns its path, for the worker's `bundlePath`.
 */
export async function buildWorkflowBundle(dir: string, say: (line: string) => void): Promise<string> {
  const hash = (await hashSources(WORKFLOW_SOURCES, WORKFLOW_FILES)).slice(0, 20);
  const name = `bundle-${hash}.js`;
  const file = path.join(dir, name);
  if (
    await access(file).then(
      () => true,
      () => false,
    )
  )
    return file;
  say('Bundling the workflows (workflows/)…');
  await mkdir(dir, { recursive: true });
  const partial = path.join(dir, `.${name}.${process.pid}.partial`);
  try {
    await runBuildStep(['workflows', partial]);
    await rename(partial, file);
  } finally {
    await rm(partial, { force: true });
  }
  for (const other of await readdir(dir)) {
    if (other !== name && (other.startsWith('bundle-') || other.endsWith('.partial'))) {
      await rm(path.join(dir, other), { force: true });
    }
  }
  return file;
}
