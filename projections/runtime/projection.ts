import type { Database } from '@infra/db';
import type { RecordedEvent } from '@infra/eventstore/port';
import type { Transaction } from 'kysely';

/** What a committed batch changed, as the live hub tells browsers: rows `ids` of `view`, for one tenant. */
export interface LiveChange {
  tenantId: string;
  view: string;
  ids: string[];
}

/**
 * A read model: the event types it reads, the tables it owns (emptied on rebuild), and `apply`, which writes one
 * batch inside the transaction that also advances its checkpoint. `apply` must be a pure function of the events
 * and the rows it finds, so a replay from the start builds the same rows.
 */
export interface Projection {
  readonly name: string;
  readonly eventTypes: readonly string[];
  readonly tables: readonly string[];
  apply(trx: Transaction<Database>, events: readonly RecordedEvent[]): Promise<LiveChange[]>;
}

export const defineProjection = <P extends Projection>(projection: P): P => projection;

/** Merges changes of one batch so that each (tenant, view) is announced once. */
export function mergeChanges(changes: readonly LiveChange[]): LiveChange[] {
  const merged = new Map<string, { tenantId: string; view: string; ids: Set<string> }>();
  for (const change of changes) {
    const key = `${change.tenantId}\u0000${change.view}`;
    const entry = merged.get(key) ?? { tenantId: change.tenantId, view: change.view, ids: new Set<string>() };
    for (const id of change.ids) entry.ids.add(id);
    merged.set(key, entry);
  }
  return [...merged.values()].map((e) => ({ tenantId: e.tenantId, view: e.view, ids: [...e.ids] }));
}
