import { existsSync } from 'node:fs';
import path from 'node:path';
import { run } from './run';

/**
 * Schemathesis (PyPI), which the test suite runs over the API's OpenAPI document: pinned, in a virtualenv of its own
 * under `.tools/` (gitignored), installed on first need by the test or by `npm run setup`, so nothing is installed
 * into the machine's Python.
 */
export const SCHEMATHESIS_VERSION = '4.32.5';
const VENV = path.resolve('.tools/schemathesis');
export const SCHEMATHESIS_CLI = path.join(VENV, 'bin', 'schemathesis');

export async function ensureSchemathesis(log?: (line: string) => void): Promise<string> {
  if (existsSync(SCHEMATHESIS_CLI) && (await installedVersion()) === SCHEMATHESIS_VERSION)
    return SCHEMATHESIS_CLI;
  log?.(`Installing Schemathesis ${SCHEMATHESIS_VERSION} into ${VENV} (pip, a minute the first time).`);
  const python = process.env.PYTHON ?? 'python3';
  const venv = await run(python, ['-m', 'venv', VENV]).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT')
      throw new Error(
        `Schemathesis needs Python 3.10 or later; ${python} was not found (set PYTHON to one).`,
      );
    throw error;
  });
  if (venv.code !== 0)
    throw new Error(`${python} -m venv ${VENV} failed: ${venv.output.at(-1) ?? 'no output'}`);
  const pip = await run(path.join(VENV, 'bin', 'pip'), [
    'install',
    '--quiet',
    '--disable-pip-version-check',
    `schemathesis==${SCHEMATHESIS_VERSION}`,
  ]);
  if (pip.code !== 0 || !existsSync(SCHEMATHESIS_CLI))
    throw new Error(
      `pip install schemathesis==${SCHEMATHESIS_VERSION} failed: ${pip.output.at(-1) ?? 'no output'}`,
    );
  return SCHEMATHESIS_CLI;
}

async function installedVersion(): Promise<string | undefined> {
  const answer = await run(SCHEMATHESIS_CLI, ['--version']).catch(() => undefined);
  return answer?.output.join(' ').match(/(\d+\.\d+\.\d+)/)?.[1];
}
