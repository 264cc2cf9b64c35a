import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { bearer, createSeller, createTestApi, type TestApi, type TestSeller } from '@tests/support/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/** The README's example consumer (examples/feed-consumer.mjs), run as an integrator runs it, against the API on a port. */

const run = promisify(execFile);
const script = path.resolve(import.meta.dirname, '..', '..', 'examples', 'feed-consumer.mjs');

describe('the example feed consumer', () => {
  let api: TestApi;
  let seller: TestSeller;
  let url: string;
  let dir: string;
  let key: string;

  const closeBatches = async (from: number, count: number) => {
    for (let i = from; i < from + count; i++) {
      await api.store.append(
        `batch-${seller.tenantId}.b${i}`,
        [
          {
            type: 'BatchClosed',
            data: {},
            metadata: { tenantId: seller.tenantId, occurredAt: '2026-11-28T01:00:00.000Z' },
          },
        ],
        { expectedRevision: 'no_stream' },
      );
    }
    await api.store.awaitVisible();
  };

  const consume = async () => {
    const { stdout } = await run(process.execPath, [script], {
      env: {
        ...process.env,
        KEDAI_URL: url,
        KEDAI_APP_KEY: key,
        FEED_POSITION_FILE: path.join(dir, 'position'),
      },
    });
    return stdout
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as { subject: string; type: string });
  };

  beforeAll(async () => {
    api = await createTestApi();
    seller = await createSeller(api);
    url = await api.app.listen({ host: '127.0.0.1', port: 0 });
    dir = await mkdtemp(path.join(tmpdir(), 'kedai-feed-'));
    const made = await api.app.inject({
      method: 'POST',
      url: '/api/setting/apps',
      headers: bearer(seller.token),
      payload: { name: 'Example consumer', eventTypes: ['BatchClosed'] },
    });
    key = made.json<{ data: { key: string } }>().data.key;
  });
  afterAll(async () => {
    await api?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('reads from the start, then only what came since, resuming from the position it saved', async () => {
    await closeBatches(0, 1200);
    const first = await consume();
    expect(first).toHaveLength(1200);
    expect(first[0]).toMatchObject({ type: 'my.kedai.BatchClosed', subject: `batch-${seller.tenantId}.b0` });
    expect(first.at(-1)!.subject).toBe(`batch-${seller.tenantId}.b1199`);
    expect(await readFile(path.join(dir, 'position'), 'utf8')).toMatch(/^\d+-\d+$/);
    expect(await consume()).toEqual([]);
    await closeBatches(1200, 3);
    expect((await consume()).map((e) => e.subject)).toEqual(
      [1200, 1201, 1202].map((i) => `batch-${seller.tenantId}.b${i}`),
    );
  });
});
