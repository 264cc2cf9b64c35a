import type { Database } from '@infra/db';
import type { Position } from '@infra/eventstore/port';
import { type Kysely, sql, type Transaction } from 'kysely';

/**
 * The compare-and-set move of a checkpoint row (a projection's or a reactor's) from `from` to `to`, counting
 * `events`: it updates the row only while it is still at `from`. Callers add their own conditions and read how many
 * rows it moved.
 */
export function moveCheckpointFrom(
  db: Kysely<Database> | Transaction<Database>,
  name: string,
  from: Position | null,
  to: Position,
  events: number,
) {
  return db
    .updateTable('projection_checkpoints')
    .set({
      position_commit: String(to.commit),
      position_prepare: String(to.prepare),
      events_applied: sql`events_applied + ${events}`,
      updated_at: sql`now()`,
    })
    .where('name', '=', name)
    .where((eb) =>
      from === null
        ? eb.and([eb('position_commit', 'is', null), eb('position_prepare', 'is', null)])
        : eb.and([
            eb('position_commit', '=', String(from.commit)),
            eb('position_prepare', '=', String(from.prepare)),
          ]),
    );
}

/**
 * Moves a live checkpoint from `from` to `to` outside any batch (a reactor's answer, or a skip past events of other
 * types); the row is created the first time, when it is missing. False when the checkpoint was not at `from`.
 */
export async function advanceCheckpoint(
  db: Kysely<Database>,
  name: string,
  from: Position | null,
  to: Position,
  events: number,
): Promise<boolean> {
  const move = () =>
    moveCheckpointFrom(db, name, from, to, events).where('status', '=', 'live').executeTakeFirst();
  let moved = await move();
  if (moved.numUpdatedRows === 0n && from === null) {
    await db
      .insertInto('projection_checkpoints')
      .values({ name })
      .onConflict((oc) => oc.doNothing())
      .execute();
    moved = await move();
  }
  return moved.numUpdatedRows > 0n;
}
