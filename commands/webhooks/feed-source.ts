import type { Database } from '@infra/db';
import { type EventStore, type Position, parseStreamId } from '@infra/eventstore/port';
import type { Kysely } from 'kysely';

/** An event as a webhook carries it: its id (the webhook-id), type, feed position and CloudEvents JSON body. */
export interface FeedItem {
  id: string;
  type: string;
  position: string;
  body: string;
}

export interface FeedSourceDeps {
  db: Kysely<Database>;
  store: EventStore;
}

// TEMPORARY until h-feed's `contract: feed read` lands: replaced by projections/feed.queries.ts.
const encode = (p: Position) => `${p.commit}:${p.prepare}`;
const decode = (s: string): Position => {
  const [commit, prepare] = s.split(':');
  return { commit: BigInt(commit!), prepare: BigInt(prepare!) };
};

export async function readSubscribedEvents(
  deps: FeedSourceDeps,
  query: { tenantId: string; after: string | null; types: readonly string[]; limit: number },
): Promise<FeedItem[]> {
  const found: FeedItem[] = [];
  let after = query.after ? decode(query.after) : undefined;
  for (;;) {
    const page = await deps.store.readAll({ ...(after ? { after } : {}), limit: 500, types: query.types });
    for (const event of page) {
      if (parseStreamId(event.stream)?.tenantId !== query.tenantId) continue;
      found.push({
        id: event.id,
        type: event.type,
        position: encode(event.position),
        body: JSON.stringify({
          specversion: '1.0',
          id: event.id,
          source: `/tenants/${query.tenantId}`,
          type: event.type,
          time: event.metadata.occurredAt,
          subject: event.stream,
          datacontenttype: 'application/json',
          data: event.data,
        }),
      });
      if (found.length === query.limit) return found;
    }
    if (page.length < 500) return found;
    after = page.at(-1)!.position;
  }
}

export async function feedHead(deps: FeedSourceDeps): Promise<string | null> {
  const head = await deps.store.headPosition();
  return head ? encode(head) : null;
}

/** The position just before `position`: a read after it starts with the event at `position`. */
export function positionBefore(position: string): string | null {
  const { commit, prepare } = decode(position);
  return encode({ commit, prepare: prepare - 1n });
}

export function comparePositions(a: string, b: string): number {
  const x = decode(a);
  const y = decode(b);
  if (x.commit !== y.commit) return x.commit < y.commit ? -1 : 1;
  return x.prepare === y.prepare ? 0 : x.prepare < y.prepare ? -1 : 1;
}

export const PUBLISHED_TYPES: readonly string[] = ['StockAdjusted', 'StockReserved', 'OrderImported'];

export const isPosition = (text: string) => /^\d{1,20}:\d{1,20}$/.test(text);
