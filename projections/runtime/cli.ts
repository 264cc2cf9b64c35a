import { randomUUID } from 'node:crypto';
import { parseArgs } from 'node:util';
import { eventSchemas } from '@domain/events';
import { config } from '@infra/config';
import { EventSchemaRegistry, formatPosition } from '@infra/eventstore';
import { openInfrastructure } from '@infra/platform';
import { projections } from '@projections/index';
import cliProgress from 'cli-progress';
import { ProjectionEngine, type RebuildProgress } from './engine';
import { LiveHub } from './live-hub';

const USAGE = `Usage:
  npm run projections -- list                       each projection's checkpoint, status and lag
  npm run projections -- rebuild <name> [--restart] [--batch-size N]
      empty the read model and replay the log into it; a rebuild that was interrupted is resumed
      unless --restart is given
  npm run projections -- run                        follow the log live until Ctrl-C`;

async function main(): Promise<number> {
  const { positionals, values } = parseArgs({
    allowPositionals: true,
    options: {
      restart: { type: 'boolean', default: false },
      'batch-size': { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  const [command, name] = positionals;
  if (values.help || !command) {
    console.log(USAGE);
    return values.help ? 0 : 1;
  }
  const batchSize = values['batch-size'] === undefined ? undefined : Number(values['batch-size']);
  if (batchSize !== undefined && !(Number.isInteger(batchSize) && batchSize > 0)) {
    console.error('--batch-size must be a positive whole number.');
    return 1;
  }

  const infra = await openInfrastructure(config(), new EventSchemaRegistry().registerAll(eventSchemas), {
    migrate: true,
  });
  const hub = new LiveHub(infra.pool);
  const engine = new ProjectionEngine({ db: infra.db, store: infra.store, projections, hub });
  try {
    switch (command) {
      case 'list': {
        for (const s of await engine.status()) {
          const at = s.position ? formatPosition(s.position) : 'start';
          console.log(`${s.name}\t${s.status}\tat ${at}\tapplied ${s.eventsApplied}\tlag ${s.lag}`);
        }
        return 0;
      }
      case 'rebuild': {
        if (!name) throw new Error('Name the projection to rebuild.');
        engine.projection(name);
        const current = await engine.checkpoint(name);
        const resume = current.status === 'rebuilding' && current.rebuildId !== null && !values.restart;
        const rebuildId = resume ? current.rebuildId! : `cli-${randomUUID()}`;
        console.log(resume ? `Resuming the rebuild of ${name} (${rebuildId}).` : `Rebuilding ${name}.`);
        const bar = new cliProgress.SingleBar(
          {
            format: `${name} [{bar}] {percentage}% | {applied} events`,
            noTTYOutput: true,
            notTTYSchedule: 2000,
          },
          cliProgress.Presets.shades_classic,
        );
        bar.start(100, 0, { applied: 0 });
        const result = await engine.rebuild(name, {
          rebuildId,
          batchSize,
          onProgress: (p) => bar.update(percent(p), { applied: String(p.eventsApplied) }),
        });
        bar.update(100, { applied: String(result.eventsApplied) });
        bar.stop();
        console.log(`Rebuilt ${name}: ${result.eventsApplied} events applied.`);
        return 0;
      }
      case 'run': {
        await hub.listen();
        engine.start();
        console.log(`Projections running: ${projections.map((p) => p.name).join(', ')}. Ctrl-C stops.`);
        await new Promise<void>((resolve) => {
          process.once('SIGINT', resolve);
          process.once('SIGTERM', resolve);
        });
        await engine.stop();
        return 0;
      }
      default:
        console.error(`Unknown command "${command}".\n${USAGE}`);
        return 1;
    }
  } finally {
    await hub.close();
    await infra.close();
  }
}

function percent(p: RebuildProgress): number {
  if (!p.head || p.head.prepare === 0n) return 100;
  const done = p.position?.prepare ?? 0n;
  return Math.min(100, Number((done * 100n) / p.head.prepare));
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : String(error));
    process.exit(1);
  },
);
