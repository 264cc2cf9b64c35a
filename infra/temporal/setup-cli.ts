import { config } from '@infra/config';
import { ensureTemporalCli } from '@infra/embedded/temporal';
import { ensureSchemathesis } from '@infra/tools/schemathesis';

// `npm run setup`: builds what `npm start` needs and cannot get from npm, so the first start is not the slow one.
async function main(): Promise<void> {
  await installSchemathesis();
  const { server } = config().temporal;
  if (server.kind === 'external') {
    console.log(`Temporal: using the server at ${server.address} (TEMPORAL_ADDRESS); nothing to build.`);
    return;
  }
  await ensureTemporalCli(server.cli, (line) => console.log(line));
  console.log(`Temporal CLI: ${server.cli}`);
}

/** The test suite's API fuzzer; a machine without Python still gets the rest (the test then names what is missing). */
async function installSchemathesis(): Promise<void> {
  try {
    console.log(`Schemathesis (for npm test): ${await ensureSchemathesis((line) => console.log(line))}`);
  } catch (error) {
    console.warn(error instanceof Error ? error.message : String(error));
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : String(error));
    process.exit(1);
  },
);
