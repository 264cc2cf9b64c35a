import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { dedicatedClient } from '@infra/db';
import type pg from 'pg';
import type { LiveChange } from './projection';

const CHANNEL = 'kedai_live';
// NOTIFY payloads must stay under 8000 bytes; split long id lists.
const MAX_PAYLOAD = 7000;

interface Envelope {
  origin: string;
  change: LiveChange;
}

/**
 * Carries `{tenantId, view, ids}` from projections to whoever shows those views: listeners in this process at
 * once, and other processes through Postgres NOTIFY (each process ignores the echo of its own notices).
 */
export class LiveHub {
  private readonly emitter = new EventEmitter();
  private readonly origin = randomUUID();
  private listener: pg.Client | undefined;

  constructor(private readonly pool?: pg.Pool) {
    this.emitter.setMaxListeners(0);
  }

  publish(changes: readonly LiveChange[]): void {
    if (changes.length === 0) return;
    for (const change of changes) this.emitter.emit('change', change);
    if (!this.pool) return;
    const payloads = changes.flatMap((change) => this.envelopes(change));
    this.pool
      .query(
        // A notice is not worth a flush to disk: its commit does not wait for one.
        `SELECT set_config('synchronous_commit', 'off', true), pg_notify('${CHANNEL}', payload)
         FROM unnest($1::text[]) AS payload`,
        [payloads],
      )
      .catch(() => undefined);
  }

  /** Calls `listener` for every change from any process; returns the unsubscribe function. */
  subscribe(listener: (change: LiveChange) => void): () => void {
    this.emitter.on('change', listener);
    return () => this.emitter.off('change', listener);
  }

  /** Starts receiving other processes' notices (one LISTEN connection). */
  async listen(): Promise<void> {
    if (!this.pool || this.listener) return;
    const client = dedicatedClient(this.pool);
    client.on('notification', (message) => {
      if (!message.payload) return;
      const envelope = JSON.parse(message.payload) as Envelope;
      if (envelope.origin !== this.origin) this.emitter.emit('change', envelope.change);
    });
    client.on('error', () => {
      this.listener = undefined;
    });
    await client.connect();
    await client.query(`LISTEN ${CHANNEL}`);
    this.listener = client;
  }

  async close(): Promise<void> {
    this.emitter.removeAllListeners();
    const listener = this.listener;
    this.listener = undefined;
    await listener?.end().catch(() => undefined);
  }

  private envelopes(change: LiveChange): string[] {
    const payloads: string[] = [];
    let ids: string[] = [];
    const flush = () => {
      payloads.push(JSON.stringify({ origin: this.origin, change: { ...change, ids } } satisfies Envelope));
      ids = [];
    };
    let size = 200 + change.view.length + change.tenantId.length;
    for (const id of change.ids) {
      if (ids.length > 0 && size + id.length + 3 > MAX_PAYLOAD) {
        flush();
        size = 200 + change.view.length + change.tenantId.length;
      }
      ids.push(id);
      size += id.length + 3;
    }
    flush();
    return payloads;
  }
}
