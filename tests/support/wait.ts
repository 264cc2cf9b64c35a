/**
 * Polls a condition until it yields a value (anything but undefined/false), then returns it. Tests wait on
 * conditions, never on the clock; the timeout only turns a hang into a readable failure.
 */
export async function waitFor<T>(
  probe: () => T | undefined | false | Promise<T | undefined | false>,
  opts: { timeoutMs?: number; intervalMs?: number; what?: string } = {},
): Promise<T> {
  const deadline = Date.now() + (opts.timeoutMs ?? 30_000);
  let lastError: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value !== undefined && value !== false) return value;
    } catch (error) {
      lastError = error;
    }
    if (Date.now() > deadline) {
      const reason = lastError instanceof Error ? `: ${lastError.message}` : '';
      throw new Error(`timed out waiting for ${opts.what ?? 'condition'}${reason}`);
    }
    await new Promise((resolve) => setTimeout(resolve, opts.intervalMs ?? 20));
  }
}
