import { API_MEMORY_EVENTS, measureApiMemory } from './api-memory';
import { log, runMain } from './report';
import { startBenchServer } from './server';

/**
 * `npx tsx tests/bench/api-memory-run.ts`: only the API memory budget (ARCHITECTURE.md: "API process memory with
 * 1,000,000 events stored ≤ 300 MB RSS"), on an embedded Postgres of its own: seeds the million events, starts the
 * API as `npm start` does and measures its RSS through the catch-up and after (tests/bench/api-memory.ts). About
 * four minutes, most of it the API catching up. Prints progress on stderr and one line of JSON on stdout.
 *
 *   API_MEMORY_EVENTS  events to seed (default 1,000,000: the budget's)
 *   API_MEMORY_FLAGS   node flags to run the API with instead of those of package.json's start script (to compare;
 *                      an empty value runs it with none)
 */

const BUDGET_MB = 300;

async function main(): Promise<void> {
  const bench = await startBenchServer();
  try {
    const flags = process.env.API_MEMORY_FLAGS;
    const result = await measureApiMemory(bench, {
      events: Number(process.env.API_MEMORY_EVENTS ?? API_MEMORY_EVENTS),
      ...(flags === undefined ? {} : { nodeFlags: flags.split(/\s+/).filter(Boolean) }),
      log,
    });
    log(
      `api memory: peak ${result.peakRssMb} MB RSS, steady ${result.steadyRssMb} MB (max ${result.steadyMaxRssMb}, ` +
        `anon ${result.steadyAnonMb} + files ${result.steadyFileMb}) with ${result.events.toLocaleString('en-US')} ` +
        `events; budget ${BUDGET_MB} MB: ${result.peakRssMb <= BUDGET_MB ? 'pass' : 'FAIL'}; up in ` +
        `${result.readySeconds.toFixed(1)} s, caught up in ${result.catchUpSeconds.toFixed(1)} s; node flags ` +
        `"${result.nodeFlags.join(' ')}"; ${result.totalSeconds.toFixed(0)} s in all`,
    );
    const cores = (value: number | undefined) => (value === undefined ? '?' : value.toFixed(2));
    log(
      `api memory: at RSS ${result.readyRssMb} MB when it first answered; caught up on ${result.catchUpApiCpuSeconds.toFixed(0)} ` +
        `s of API CPU (${result.catchUpCpu}); steady: API ${cores(result.steadyApiCores)} cores, Postgres ` +
        `${cores(result.steadyPostgresCores)} cores; beside it the background process (Temporal worker, projections, reactors) ${result.workerSteadyRssMb ?? '?'} MB ` +
        `(peak ${result.workerPeakRssMb ?? '?'} MB), the Temporal dev server ${result.temporalPeakRssMb ?? '?'} MB, ` +
        `the tsx launcher ${result.launcherPeakRssMb ?? '?'} MB; the API appended ${result.appendedByApi} event(s)`,
    );
    process.stdout.write(
      `${JSON.stringify({
        apiPeakRssMb: result.peakRssMb,
        apiSteadyRssMb: result.steadyRssMb,
        workerSteadyRssMb: result.workerSteadyRssMb ?? null,
        workerPeakRssMb: result.workerPeakRssMb ?? null,
        apiCatchUpSeconds: Number(result.catchUpSeconds.toFixed(1)),
        apiMemoryEvents: result.events,
      })}\n`,
    );
  } finally {
    await bench.stop();
  }
}

runMain(main);
