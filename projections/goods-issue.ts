import { evolve, type GoodsIssueState, initialState, waitingLayer } from '@domain/goods-issue/decider';
import { GIN_EVENT_TYPES, type GinEvent } from '@domain/goods-issue/events';
import { GOODS_ISSUE_VIEW } from '@domain/shared/live-views';
import type { GoodsIssuesTable } from '@infra/db';
import { parseStreamId, type RecordedEvent } from '@infra/eventstore/port';
import { type Insertable, sql } from 'kysely';
import { defineProjection, type LiveChange } from './runtime/projection';

export { GOODS_ISSUE_VIEW };

/**
 * The goods issue notes' list (`goods_issues`), from the notes' events (domain/goods-issue/decider.ts): one row per
 * note with what the list shows, filters and sorts on — status, the layer waiting, the warehouse, the counts — and
 * the folded note in `state`, which the next batch evolves further (the decider's own `evolve`, so a rebuild folds
 * the same rows). Live changes name the notes in the view `goodsIssues`.
 */

export const GOODS_ISSUE_PROJECTION = 'goods_issues';

type Row = Insertable<GoodsIssuesTable>;

function rowOf(tenantId: string, ginId: string, state: GoodsIssueState, revision: bigint): Row {
  return {
    tenant_id: tenantId,
    id: ginId,
    reference: state.reference,
    reason: state.reason,
    remark: state.remark,
    warehouse_id: state.warehouseId,
    status: state.status,
    layers: state.approval?.settings.layers ?? null,
    current_layer: waitingLayer(state),
    line_count: state.lines.length,
    total_quantity: state.lines.reduce((sum, line) => sum + line.quantity, 0),
    issue_failed: state.issue.failure !== null,
    created_by: state.createdBy,
    created_at: state.createdAt,
    updated_at: state.updatedAt,
    last_revision: revision.toString(),
    state: JSON.stringify(state),
  };
}

export const goodsIssueProjection = defineProjection({
  name: GOODS_ISSUE_PROJECTION,
  eventTypes: GIN_EVENT_TYPES,
  tables: ['goods_issues'],
  async apply(trx, events) {
    const notes = new Map<string, { tenantId: string; ginId: string; events: RecordedEvent[] }>();
    for (const event of events) {
      const ginId = parseStreamId(event.stream)?.entityKey;
      if (!ginId) continue;
      const key = `${event.metadata.tenantId}\u0000${ginId}`;
      const note = notes.get(key) ?? { tenantId: event.metadata.tenantId, ginId, events: [] };
      note.events.push(event);
      notes.set(key, note);
    }
    if (notes.size === 0) return [];

    const ids = [...new Set([...notes.values()].map((note) => note.ginId))];
    const stored = await trx
      .selectFrom('goods_issues')
      .select(['tenant_id', 'id', 'state'])
      .where('id', 'in', ids)
      .execute();
    const states = new Map(
      stored.map((row) => [`${row.tenant_id}\u0000${row.id}`, row.state as unknown as GoodsIssueState]),
    );

    const rows: Row[] = [];
    const changes = new Map<string, LiveChange>();
    for (const [key, note] of notes) {
      let state = states.get(key) ?? initialState;
      for (const event of note.events)
        state = evolve(state, { type: event.type, data: event.data } as GinEvent);
      if (state.status === 0) continue;
      rows.push(rowOf(note.tenantId, note.ginId, state, note.events[note.events.length - 1]!.revision));
      const change = changes.get(note.tenantId) ?? {
        tenantId: note.tenantId,
        view: GOODS_ISSUE_VIEW,
        ids: [],
      };
      change.ids.push(note.ginId);
      changes.set(note.tenantId, change);
    }
    if (rows.length > 0) {
      await trx
        .insertInto('goods_issues')
        .values(rows)
        .onConflict((oc) =>
          oc.columns(['tenant_id', 'id']).doUpdateSet({
            reference: sql`excluded.reference`,
            reason: sql`excluded.reason`,
            remark: sql`excluded.remark`,
            warehouse_id: sql`excluded.warehouse_id`,
            status: sql`excluded.status`,
            layers: sql`excluded.layers`,
            current_layer: sql`excluded.current_layer`,
            line_count: sql`excluded.line_count`,
            total_quantity: sql`excluded.total_quantity`,
            issue_failed: sql`excluded.issue_failed`,
            created_by: sql`excluded.created_by`,
            created_at: sql`excluded.created_at`,
            updated_at: sql`excluded.updated_at`,
            last_revision: sql`excluded.last_revision`,
            state: sql`excluded.state`,
          }),
        )
        .execute();
    }
    return [...changes.values()];
  },
});
