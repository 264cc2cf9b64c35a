import net from 'node:net';

/** Raised when a port the project would listen on is taken; one sentence naming the setting. */
export class PortInUseError extends Error {
  override name = 'PortInUseError';
  constructor(
    readonly port: number,
    readonly setting: string,
  ) {
    super(`Port ${port} (${setting}) is already in use; stop what uses it or set ${setting} to a free port.`);
  }
}

/** Resolves when nothing listens on the port; rejects with PortInUseError otherwise. */
export async function assertPortFree(port: number, setting: string, host = '127.0.0.1'): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', (error: NodeJS.ErrnoException) =>
      reject(error.code === 'EADDRINUSE' ? new PortInUseError(port, setting) : error),
    );
    probe.listen({ port, host, exclusive: true }, () => probe.close(() => resolve()));
  });
}

/** A port the OS reports free right now (for tests and embedded servers started side by side). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen({ port: 0, host: '127.0.0.1' }, () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}
