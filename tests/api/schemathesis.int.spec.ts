import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { run } from '@infra/tools/run';
import { ensureSchemathesis } from '@infra/tools/schemathesis';
import { createAdmin, createSeller, createTestApi, type TestApi } from '@tests/support/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * Schemathesis over the API's own OpenAPI document (`/docs/json`), against the real API listening on a port: every
 * operation is sent generated input, valid and invalid, and fails the run when it answers a 5xx or an answer its
 * declared schema does not describe. The seller's owner (who holds every permission) calls the seller routes, the
 * provider's admin the admin ones. Bounded in time for `npm test`; `SCHEMATHESIS_DEEP=1` searches far longer.
 *
 * Left out: `POST /api/logout`, which would revoke the token every other case uses (its own tests:
 * tests/api/session.int.spec.ts); the websocket `/api/live` (tests/api/live.int.spec.ts). Stateful testing is not
 * run: it chains answers into calls and would sign the caller out or lock its account.
 */

const DEEP = process.env.SCHEMATHESIS_DEEP === '1';
/** Seconds of the whole seller run, and of the admin run (few operations). */
const BUDGET = DEEP ? { seller: 1800, admin: 300 } : { seller: 140, admin: 25 };
const EXAMPLES = DEEP ? 200 : 8;

describe('Schemathesis over the OpenAPI document', () => {
  let api: TestApi;
  let base: string;
  let cli: string;
  /** Where the CLI keeps its cache and reports: a directory of this run, not the worktree. */
  let cwd: string;
  const tokens = { seller: '', admin: '' };

  beforeAll(async () => {
    cli = await ensureSchemathesis((line) => console.log(line));
    cwd = await mkdtemp(path.join(tmpdir(), 'kedai-schemathesis-'));
    // With workflows: the routes that start or signal one answer as in `npm start`, not after a client timeout.
    api = await createTestApi({ workflows: true });
    tokens.seller = (await createSeller(api, { packageId: 'enterprise' })).token;
    tokens.admin = (await createAdmin(api)).token;
    await api.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(api.app.server.address() as AddressInfo).port}`;
  }, 600_000);
  afterAll(async () => {
    await api?.close();
    if (cwd) await rm(cwd, { recursive: true, force: true });
  });

  const schemathesis = async (who: 'seller' | 'admin', filter: string[]) => {
    const answer = await run(
      cli,
      [
        'run',
        `${base}/docs/json`,
        '--url',
        base,
        '--checks',
        'not_a_server_error,response_schema_conformance',
        '--phases',
        'examples,coverage,fuzzing',
        '--max-examples',
        String(EXAMPLES),
        '--max-time',
        String(BUDGET[who]),
        // One worker: CPython 3.11's ast module is not thread-safe ("AST constructor recursion depth mismatch" when
        // Hypothesis describes a strategy in two threads at once), which fails a run for no fault of the API.
        '--workers',
        '1',
        '--request-timeout',
        '20',
        '--header',
        `Authorization: Bearer ${tokens[who]}`,
        '--no-color',
        '--output-truncate',
        'false',
        ...filter,
      ],
      { cwd, keep: 5000 },
    );
    // The CLI prints each failure with the request that reproduces it (a curl line) and the answer it got; its
    // warnings (operations that mostly answered 404 to made-up ids) are left out of the message.
    const report = answer.output.join('\n').replace(/={5,} WARNINGS ={5,}[\s\S]*?(?=={5,} SUMMARY)/, '');
    console.log(`Schemathesis, ${who}:\n${report.slice(report.search(/={5,} SUMMARY/))}`);
    expect(answer.code, report).toBe(0);
  };

  it(
    'finds no 5xx and no answer outside its schema on the seller routes',
    () => schemathesis('seller', ['--exclude-path-regex', '^/api/(admin/|logout$|live$)']),
    (BUDGET.seller + 120) * 1000,
  );

  it(
    "finds none on the provider admin's routes",
    () => schemathesis('admin', ['--include-path-regex', '^/api/admin/']),
    (BUDGET.admin + 60) * 1000,
  );
});
