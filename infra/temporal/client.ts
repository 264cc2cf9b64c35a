import { Client, Connection } from '@temporalio/client';

/**
 * What the API's process needs of Temporal: a client for starting and querying workflows. Apart from the worker
 * (index.ts), so that importing it does not load the worker's native core into the API.
 */

const CONNECT_TIMEOUT_MS = 3_000;

/** Connects a client; rejects with one sentence naming the address when the server does not answer. */
export async function connectTemporal(opts: {
  address: string;
  namespace: string;
}): Promise<{ client: Client; connection: Connection; close(): Promise<void> }> {
  let connection: Connection;
  try {
    connection = await Connection.connect({ address: opts.address, connectTimeout: CONNECT_TIMEOUT_MS });
  } catch (error) {
    throw unreachable(opts.address, error);
  }
  const client = new Client({ connection, namespace: opts.namespace });
  return { client, connection, close: () => connection.close() };
}

export function unreachable(address: string, error: unknown): Error {
  const reason = (error instanceof Error ? error.message : String(error)).trim().replace(/\.$/, '');
  return new Error(`Temporal at ${address} cannot be reached (${reason}).`, { cause: error });
}
