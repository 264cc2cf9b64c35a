import { createHash } from 'node:crypto';
import { createTestApi, type TestApi } from '@tests/support/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * Every path, method, parameter, request body and answer shape of the OpenAPI document, against the committed
 * record beside this file (one line an operation: its shapes' digest): a route refactor that drops a path or changes a shape fails here. A deliberate change
 * to the API updates the record (`npx vitest run tests/api/openapi-shape.int.spec.ts -u`) in the same commit.
 * Summaries and descriptions are prose and left out.
 */

type Json = unknown;

/** The document without its prose, keys sorted, so the record reads as a diff of shapes only. */
function shapesOf(value: Json): Json {
  if (Array.isArray(value)) return value.map(shapesOf);
  if (value === null || typeof value !== 'object') return value;
  const entries = Object.entries(value as Record<string, Json>)
    .filter(([key]) => key !== 'summary' && key !== 'description' && key !== 'tags')
    .sort(([a], [b]) => a.localeCompare(b));
  return Object.fromEntries(entries.map(([key, inner]) => [key, shapesOf(inner)]));
}

describe('the OpenAPI document', () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await createTestApi();
  });
  afterAll(async () => {
    await api?.close();
  });

  it('keeps every path and answer shape it is recorded with', async () => {
    const response = await api.app.inject({ method: 'GET', url: '/docs/json' });
    expect(response.statusCode).toBe(200);
    const { paths } = response.json<{ paths: Record<string, Record<string, Json>> }>();
    const lines = Object.entries(paths).flatMap(([path, operations]) =>
      Object.entries(operations).map(([method, operation]) => {
        const digest = createHash('sha256')
          .update(JSON.stringify(shapesOf(operation)))
          .digest('hex');
        return `${method.toUpperCase()} ${path} ${digest.slice(0, 16)}`;
      }),
    );
    expect(lines.length).toBeGreaterThan(150);
    await expect(`${lines.sort().join('\n')}\n`).toMatchFileSnapshot('./openapi-shape.snapshot.txt');
  });
});
