import type { Database } from '@infra/db';
import { userNames } from '@projections/documents.queries';
import type { Kysely, Transaction } from 'kysely';
import type { TimelineEntry } from './document';

export interface Person {
  id: string;
  name: string | null;
}

/**
 * A document's timeline as answered (who did what, when), and `person` to name anyone else among its people: both
 * from one read of the names of everyone in the timeline and in `others`.
 */
export async function namedTimeline(
  db: Kysely<Database> | Transaction<Database>,
  tenantId: string,
  timeline: readonly TimelineEntry[],
  others: readonly (string | null)[] = [],
) {
  const names = await userNames(db, tenantId, [...timeline.map((entry) => entry.userId), ...others]);
  const person = (id: string | null): Person | null => (id ? { id, name: names.get(id) ?? null } : null);
  return {
    person,
    timeline: timeline.map((entry) => ({
      type: entry.type,
      at: entry.at,
      user: person(entry.userId),
      data: entry.data as Record<string, unknown>,
    })),
  };
}
