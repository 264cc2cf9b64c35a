import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const dir = (p: string) => fileURLToPath(new URL(p, import.meta.url));

export default defineConfig({
  resolve: {
    alias: {
      '@domain': dir('./domain'),
      '@commands': dir('./commands'),
      '@projections': dir('./projections'),
      '@workflows': dir('./workflows'),
      '@api': dir('./api'),
      '@infra': dir('./infra'),
      '@integrations': dir('./integrations'),
      '@tests': dir('./tests'),
    },
  },
  test: {
    include: ['tests/**/*.spec.ts'],
    globalSetup: ['tests/support/global-setup.ts'],
    testTimeout: 120_000,
    hookTimeout: 180_000,
    // A condition waited on (a notice on screen, a count moved live) gets 10 s, not vitest's 1 s: on a loaded
    // 2-core machine a browser, the API, Temporal and Postgres share the cores, and a poll that met its condition
    // returns at once anyway.
    expect: { poll: { timeout: 10_000 } },
    pool: 'forks',
    fileParallelism: true,
    maxWorkers: 2,
    reporters: ['default', './tests/support/summary-reporter.ts'],
  },
});
