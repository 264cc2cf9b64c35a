import { randomUUID } from 'node:crypto';
import type { GoodsIssueBody, GoodsIssueDetail } from '@api/contracts/goods-issue';
import {
  decide,
  type GinFields,
  type GoodsIssueCommand,
  refuseGoodsIssueReference,
} from '@domain/goods-issue/decider';
import { type FieldRefusal, refusedTogether } from '@domain/shared/errors';
import type { Database } from '@infra/db';
import { masterCodesOfTenant, placeOfTenant } from '@projections/documents.queries';
import type { Kysely } from 'kysely';
import type { Answered } from '../support/answer';
import { eventIdFor } from '../support/ids';
import { goodsIssueDetail } from './details';
import { handleGoodsIssueCommand } from './goods-issue';
import { type GoodsIssueDeps, type GoodsIssueViewer, noteOrRefuse, startGoodsIssueWorkflow } from './support';

/**
 * A goods issue note's draft: created (its id derived from the idempotency key, so a retried create makes one
 * note) and edited by its creator while Pending. The warehouse and each line's master code are checked against the
 * account first, then the decider's own rules. The note's workflow is started right away, and by the reactor on
 * its creation (workflow-reactor.ts) should that fail.
 */

/**
 * The fields' warehouse and master codes, each the tenant's: an unknown one (or another tenant's) is refused naming
 * the line; a combo (no stock of its own) or a master code on two lines too. Every such problem in one answer.
 */
async function checkReferences(db: Kysely<Database>, tenantId: string, fields: GinFields): Promise<void> {
  const problems: FieldRefusal[] = [];
  const warehouse = await placeOfTenant(db, tenantId, fields.warehouseId);
  if (!warehouse)
    problems.push({ field: 'warehouse_id', error: refuseGoodsIssueReference('GIN_WAREHOUSE_NOT_FOUND') });
  const codes = await masterCodesOfTenant(
    db,
    tenantId,
    fields.lines.map((line) => line.masterCodeId),
  );
  const seen = new Set<string>();
  fields.lines.forEach((line, index) => {
    const field = `lines/${index}/master_code_id`;
    const masterCode = codes.get(line.masterCodeId);
    const at = { line: index + 1 };
    if (!masterCode)
      problems.push({ field, error: refuseGoodsIssueReference('GIN_MASTER_CODE_NOT_FOUND', at) });
    else if (masterCode.type === 'combo')
      problems.push({
        field,
        error: refuseGoodsIssueReference('GIN_COMBO_LINE', { ...at, code: masterCode.code }),
      });
    else if (seen.has(masterCode.id))
      problems.push({
        field,
        error: refuseGoodsIssueReference('GIN_MASTER_CODE_REPEATED', { ...at, code: masterCode.code }),
      });
    else seen.add(masterCode.id);
  });
  const refused = refusedTogether(problems);
  if (refused) throw refused;
}

const fieldsOf = (body: GoodsIssueBody): GinFields => ({
  warehouseId: body.warehouse_id,
  reference: body.reference,
  reason: body.reason,
  remark: body.remark,
  lines: body.lines.map((line) => ({ masterCodeId: line.master_code_id, quantity: line.quantity })),
});

/** A new draft (status 1 Pending), answered with its detail; `replayed` when the key made it before. */
export async function createGoodsIssue(
  deps: GoodsIssueDeps,
  actor: GoodsIssueViewer,
  input: { key: string | undefined; body: GoodsIssueBody },
): Promise<{ replayed: boolean; answer: Answered<GoodsIssueDetail> }> {
  const fields = fieldsOf(input.body);
  await checkReferences(deps.db, actor.tenantId, fields);
  const ginId = input.key ? eventIdFor(`gin:${actor.tenantId}:${input.key}`) : randomUUID();
  const at = new Date().toISOString();
  const result = await handleGoodsIssueCommand(
    deps.store,
    actor.tenantId,
    ginId,
    { type: 'CreateGoodsIssue', ginId, userId: actor.userId, at, ...fields },
    { userId: actor.userId, commandId: `gin-create:${ginId}`, occurredAt: at },
  );
  // Started now, so an action right after finds it; the reactor on the creation starts it should this fail.
  await startGoodsIssueWorkflow(deps.workflows, actor.tenantId, ginId, result.state).catch(() => undefined);
  const detail = await goodsIssueDetail(deps, actor, ginId);
  return { replayed: result.replayed, answer: [detail, 'goods_issue.created'] };
}

/**
 * The draft's new fields: its state and its creator checked first (with the fields it has), then what is named;
 * answered with the note after it.
 */
export async function editGoodsIssue(
  deps: GoodsIssueDeps,
  actor: GoodsIssueViewer,
  input: { ginId: string; body: GoodsIssueBody },
): Promise<Answered<GoodsIssueDetail>> {
  const { state } = await noteOrRefuse(deps.store, actor.tenantId, input.ginId);
  const fields = fieldsOf(input.body);
  const at = new Date().toISOString();
  const command = (fields: GinFields): GoodsIssueCommand => ({
    type: 'EditGoodsIssue',
    userId: actor.userId,
    at,
    ...fields,
  });
  // The decider's verdict on the note as it is (wrong state, not the creator) comes before the body's references.
  decide(command(state), state);
  await checkReferences(deps.db, actor.tenantId, fields);
  await handleGoodsIssueCommand(deps.store, actor.tenantId, input.ginId, command(fields), {
    userId: actor.userId,
    commandId: `gin-edit:${input.ginId}:${randomUUID()}`,
    occurredAt: at,
  });
  return [await goodsIssueDetail(deps, actor, input.ginId), 'goods_issue.saved'];
}
