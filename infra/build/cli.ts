import { writeWorkflowBundle } from '@infra/temporal';
import { ensureConsoleBuilt } from '@infra/web/build';

/**
 * The build steps `npm start` runs in a process of their own (infra/build/child.ts):
 *   console            builds the console into web/dist unless it is up to date
 *   workflows <file>   bundles the workflow code into <file>
 */

async function main(args: string[]): Promise<void> {
  const [step, file] = args;
  if (step === 'console') {
    await ensureConsoleBuilt();
  } else if (step === 'workflows' && file) {
    await writeWorkflowBundle(file);
  } else {
    throw new Error('usage: infra/build/cli.ts console | workflows <file>');
  }
}

main(process.argv.slice(2)).then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : String(error));
    process.exit(1);
  },
);
