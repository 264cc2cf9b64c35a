import { assertPortFree } from '@infra/embedded/ports';
import { SandboxConfigError, sandboxOptionsFromEnv } from './config';
import { startShopeeSandbox } from './server';

/**
 * Runs the Shopee sandbox alone: `node --import tsx integrations/shopee/sandbox/main.ts [--port 8790] [--rate 30]`
 * (settings in config.ts). Stops cleanly, saving its orders, on SIGINT or SIGTERM.
 */

async function main(): Promise<void> {
  const { options, dataDir, help } = sandboxOptionsFromEnv(process.env, process.argv.slice(2));
  if (help) {
    process.stdout.write(help);
    return;
  }
  if (options.port) await assertPortFree(options.port, 'SHOPEE_SANDBOX_PORT', options.host);
  const sandbox = await startShopeeSandbox({ ...options, log: (line) => console.error(line) });
  const partner = options.partners[0]!;
  console.log(`Shopee sandbox listening on ${sandbox.url}`);
  console.log(`  partner_id ${partner.partnerId}, partner_key ${partner.partnerKey}`);
  for (const shop of sandbox.shops)
    console.log(`  shop ${shop.shopId} "${shop.name}": ${shop.orderCount} orders`);
  console.log(`  ${options.orderRate} new orders per hour per shop; data ${dataDir ?? 'in memory'}`);

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`Shopee sandbox stopping (${signal})`);
    sandbox.stop().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error(error);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}

main().catch((error: unknown) => {
  console.error(
    error instanceof SandboxConfigError || (error instanceof Error && error.name === 'PortInUseError')
      ? error.message
      : error,
  );
  process.exit(1);
});
