/** Progress goes to stderr; stdout carries only the table and, as its last line, the JSON figures. */
export function log(message: string): void {
  process.stderr.write(`[bench] ${message}\n`);
}

/** Runs a bench entry: exits with its code (0 when it returns none), or logs its failure and exits 1. */
export function runMain(main: () => Promise<unknown>): void {
  main().then(
    (code) => process.exit(typeof code === 'number' ? code : 0),
    (error: unknown) => {
      log(`failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
      process.exit(1);
    },
  );
}

export interface Row {
  measure: string;
  value: string;
  budget?: string;
  pass?: boolean;
  detail?: string;
}

export function formatTable(rows: readonly Row[]): string {
  const header = ['measure', 'value', 'budget', 'result', 'detail'];
  const cells = rows.map((r) => [
    r.measure,
    r.value,
    r.budget ?? '',
    r.pass === undefined ? '' : r.pass ? 'pass' : 'FAIL',
    r.detail ?? '',
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i]!.length)));
  const line = (c: readonly string[]) =>
    c
      .map((v, i) => (i === 1 ? v.padStart(widths[i]!) : v.padEnd(widths[i]!)))
      .join(' | ')
      .trimEnd();
  return [line(header), widths.map((w) => '-'.repeat(w)).join('-|-'), ...cells.map(line)].join('\n');
}

export const perSec = (value: number) => `${Math.round(value).toLocaleString('en-US')}/s`;
export const ratio = (value: number) => value.toFixed(3);
