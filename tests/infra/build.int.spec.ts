import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { buildWorkflowBundle } from '@infra/build/steps';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

describe('the workflow bundle npm start builds', () => {
  let dir: string;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'kedai-bundle-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('is built in another process once for the sources as they are, replacing older bundles', async () => {
    await writeFile(path.join(dir, 'bundle-0000.js'), 'an older build');
    const said: string[] = [];
    const file = await buildWorkflowBundle(dir, (line) => said.push(line));
    expect(path.basename(file)).toMatch(/^bundle-[0-9a-f]{20}\.js$/);
    expect(said).toEqual(['Bundling the workflows (workflows/)…']);
    const code = await readFile(file, 'utf8');
    for (const workflow of ['transferWorkflow', 'goodsIssueWorkflow', 'orderImportWorkflow']) {
      expect(code).toContain(workflow);
    }
    // The older bundle and the partial file are gone: only this build is left.
    expect(await readdir(dir)).toEqual([path.basename(file)]);
    // Webpack never ran here: the bundler's module is not loaded in this process.
    const webpackLoaded = Object.keys(require.cache).some((key) =>
      key.includes(`${path.sep}webpack${path.sep}`),
    );
    expect(webpackLoaded).toBe(false);

    const built = (await stat(file)).mtimeMs;
    const again = await buildWorkflowBundle(dir, (line) => said.push(line));
    expect(again).toBe(file);
    expect((await stat(file)).mtimeMs).toBe(built);
    expect(said).toHaveLength(1);
  });
});
