import {
  type ApprovalAction,
  type ApprovalProgress,
  type ApprovalSettings,
  applyApproval,
  currentLayer,
  DEFAULT_APPROVAL_SETTINGS,
  decideApproval,
  ginApprovalKey,
  isApproved,
  startApproval,
} from '@domain/approvals/layers';
import { DomainError } from '@domain/shared/errors';
import { describe, expect, it } from 'vitest';

/**
 * The approval layers decider (domain/approvals/layers.ts): each refusal on its own, the order the checks are made
 * in, and — over every number of layers, every point of the approval, every layer asked, every set of keys and
 * every user — the rules that must always hold.
 */

const AT = '2026-11-22T08:00:00.000Z';
const ALL_KEYS = [1, 2, 3].map(ginApprovalKey);
const settings = (layers: number, allowSameApprover = false): ApprovalSettings => ({
  layers,
  reminderSeconds: 60,
  allowSameApprover,
});

const approve = (layer: number, userId: string, keys: readonly string[] = ALL_KEYS): ApprovalAction => ({
  kind: 'approve',
  layer,
  userId,
  keys,
  at: AT,
});
const reject = (
  layer: number,
  userId: string,
  reason = 'wrong items',
  keys: readonly string[] = ALL_KEYS,
): ApprovalAction => ({ kind: 'reject', layer, userId, keys, at: AT, reason });

/** The progress after these approvals (each must be accepted). */
function progressAfter(start: ApprovalProgress, actions: ApprovalAction[]): ApprovalProgress {
  return actions.reduce(
    (progress, action) => applyApproval(progress, decideApproval(progress, action)),
    start,
  );
}

function refusalOf(run: () => unknown): { code: string; params: Record<string, string | number> } | null {
  try {
    run();
    return null;
  } catch (error) {
    expect(error).toBeInstanceOf(DomainError);
    return { code: (error as DomainError).code, params: (error as DomainError).params };
  }
}

describe('approval layers: the settings', () => {
  it('defaults to one layer, a day before the reminder, one user per layer', () => {
    expect(DEFAULT_APPROVAL_SETTINGS).toEqual({
      layers: 1,
      reminderSeconds: 86_400,
      allowSameApprover: false,
    });
  });

  it('starts with layer 1 waiting and nothing decided', () => {
    for (const layers of [1, 2, 3]) {
      const progress = startApproval(settings(layers));
      expect(currentLayer(progress)).toBe(1);
      expect(isApproved(progress)).toBe(false);
      expect(progress).toEqual({ settings: settings(layers), approvals: [], rejection: null });
    }
  });

  it('refuses settings out of bounds', () => {
    for (const bad of [
      settings(0),
      settings(4),
      settings(1.5),
      { ...settings(2), reminderSeconds: 0 },
      { ...settings(2), reminderSeconds: 0.5 },
    ]) {
      expect(refusalOf(() => startApproval(bad))?.code).toBe('APPROVAL_SETTINGS_INVALID');
    }
  });

  it('takes a copy of the settings: changing them later does not move the document', () => {
    const chosen = settings(2);
    const progress = startApproval(chosen);
    chosen.layers = 3;
    expect(progress.settings.layers).toBe(2);
  });
});

describe('approval layers: deciding', () => {
  it('approves the layers in order, each by a holder of its key, the last one final', () => {
    let progress = startApproval(settings(3));
    const first = decideApproval(progress, approve(1, 'ana', [ginApprovalKey(1)]));
    expect(first).toEqual({ kind: 'approved', approval: { layer: 1, userId: 'ana', at: AT }, final: false });
    progress = applyApproval(progress, first);
    expect(currentLayer(progress)).toBe(2);
    progress = applyApproval(progress, decideApproval(progress, approve(2, 'ben', [ginApprovalKey(2)])));
    expect(currentLayer(progress)).toBe(3);
    const last = decideApproval(progress, approve(3, 'chen', [ginApprovalKey(3)]));
    expect(last).toMatchObject({ kind: 'approved', final: true });
    progress = applyApproval(progress, last);
    expect(currentLayer(progress)).toBeNull();
    expect(isApproved(progress)).toBe(true);
    expect(progress.approvals.map((a) => [a.layer, a.userId])).toEqual([
      [1, 'ana'],
      [2, 'ben'],
      [3, 'chen'],
    ]);
  });

  it('lets any layer reject, with its reason; nothing is decided after', () => {
    for (const layer of [1, 2, 3]) {
      const before = progressAfter(
        startApproval(settings(3)),
        ['a', 'b', 'c'].slice(0, layer - 1).map((user, index) => approve(index + 1, user)),
      );
      const decision = decideApproval(before, reject(layer, 'rita', '  damaged  '));
      expect(decision).toEqual({
        kind: 'rejected',
        rejection: { layer, userId: 'rita', at: AT, reason: 'damaged' },
      });
      const after = applyApproval(before, decision);
      expect(currentLayer(after)).toBeNull();
      expect(isApproved(after)).toBe(false);
      expect(refusalOf(() => decideApproval(after, approve(layer, 'zoe')))).toEqual({
        code: 'APPROVAL_REJECTED',
        params: { layer },
      });
    }
  });

  it('refuses a user without the layer key, naming the key', () => {
    const progress = progressAfter(startApproval(settings(3)), [approve(1, 'ana')]);
    // Layer 1's and layer 3's keys do not approve layer 2.
    expect(
      refusalOf(() => decideApproval(progress, approve(2, 'ben', [ginApprovalKey(1), ginApprovalKey(3)]))),
    ).toEqual({ code: 'APPROVAL_KEY_MISSING', params: { layer: 2, key: 'gin-approval-layer-2' } });
    expect(refusalOf(() => decideApproval(progress, reject(2, 'ben', 'no', [])))?.code).toBe(
      'APPROVAL_KEY_MISSING',
    );
  });

  it('refuses a layer out of order, before or after the one waiting', () => {
    const progress = progressAfter(startApproval(settings(3)), [approve(1, 'ana')]);
    expect(refusalOf(() => decideApproval(progress, approve(3, 'chen')))).toEqual({
      code: 'APPROVAL_OUT_OF_ORDER',
      params: { layer: 3, current: 2 },
    });
    expect(refusalOf(() => decideApproval(progress, approve(1, 'ben')))).toEqual({
      code: 'APPROVAL_OUT_OF_ORDER',
      params: { layer: 1, current: 2 },
    });
    expect(refusalOf(() => decideApproval(progress, reject(3, 'chen')))?.code).toBe('APPROVAL_OUT_OF_ORDER');
  });

  it('refuses a layer the document does not have', () => {
    const progress = startApproval(settings(2));
    for (const layer of [0, 3, 4, -1, 1.5, Number.NaN]) {
      expect(refusalOf(() => decideApproval(progress, approve(layer, 'ana')))?.code).toBe(
        'APPROVAL_LAYER_INVALID',
      );
    }
  });

  it('refuses the same user at two layers when the settings forbid it, allows it when they allow it', () => {
    const forbidding = progressAfter(startApproval(settings(3, false)), [approve(1, 'ana')]);
    expect(refusalOf(() => decideApproval(forbidding, approve(2, 'ana')))).toEqual({
      code: 'APPROVAL_SAME_USER',
      params: { layer: 2, approved: 1 },
    });
    // Rejecting is not approving: the earlier approver may still stop it.
    expect(decideApproval(forbidding, reject(2, 'ana')).kind).toBe('rejected');

    const allowing = progressAfter(startApproval(settings(3, true)), [approve(1, 'ana'), approve(2, 'ana')]);
    expect(decideApproval(allowing, approve(3, 'ana'))).toMatchObject({ kind: 'approved', final: true });
  });

  it('refuses a second approval of the same layer by the same user (a double click), before anything else', () => {
    const once = progressAfter(startApproval(settings(2, true)), [approve(1, 'ana')]);
    expect(refusalOf(() => decideApproval(once, approve(1, 'ana')))).toEqual({
      code: 'APPROVAL_ALREADY_GIVEN',
      params: { layer: 1 },
    });
    // Even once the whole approval is over.
    const done = progressAfter(startApproval(settings(1)), [approve(1, 'ana')]);
    expect(refusalOf(() => decideApproval(done, approve(1, 'ana')))?.code).toBe('APPROVAL_ALREADY_GIVEN');
    expect(refusalOf(() => decideApproval(done, approve(1, 'ben')))?.code).toBe('APPROVAL_COMPLETE');
    expect(refusalOf(() => decideApproval(done, reject(1, 'ben')))?.code).toBe('APPROVAL_COMPLETE');
  });

  it('refuses a rejection without a reason', () => {
    const progress = startApproval(settings(1));
    expect(refusalOf(() => decideApproval(progress, reject(1, 'ana', '   ')))).toEqual({
      code: 'APPROVAL_REASON_REQUIRED',
      params: { layer: 1 },
    });
  });

  it('checks in order: decided, layer exists, layer waiting, key, same user', () => {
    const progress = progressAfter(startApproval(settings(2)), [approve(1, 'ana')]);
    // Out of order and without the key: the order is what is said.
    expect(refusalOf(() => decideApproval(progress, approve(1, 'ben', [])))?.code).toBe(
      'APPROVAL_OUT_OF_ORDER',
    );
    // Without the key and the same user: the key is said.
    expect(refusalOf(() => decideApproval(progress, approve(2, 'ana', [])))?.code).toBe(
      'APPROVAL_KEY_MISSING',
    );
    // A layer the document lacks, without the key.
    expect(refusalOf(() => decideApproval(progress, approve(3, 'ben', [])))?.code).toBe(
      'APPROVAL_LAYER_INVALID',
    );
  });

  it('uses the key a document names for its layers', () => {
    const grnKey = (layer: number) => `grn-approval-layer-${layer}`;
    const progress = startApproval(settings(1));
    expect(refusalOf(() => decideApproval(progress, approve(1, 'ana', ALL_KEYS), grnKey))?.code).toBe(
      'APPROVAL_KEY_MISSING',
    );
    expect(decideApproval(progress, approve(1, 'ana', [grnKey(1)]), grnKey).kind).toBe('approved');
  });
});

describe('approval layers: every case', () => {
  const USERS = ['u1', 'u2', 'u3', 'other'];
  const KEY_SETS: readonly (readonly string[])[] = [
    [],
    [ginApprovalKey(1)],
    [ginApprovalKey(2)],
    [ginApprovalKey(3)],
    [ginApprovalKey(1), ginApprovalKey(2)],
    ALL_KEYS,
  ];
  const ASKED_LAYERS = [0, 1, 2, 3, 4, 2.5];

  /** Every reachable progress: each number of layers, each setting, each point, approvers distinct or one user. */
  function* progresses(): Generator<{ progress: ApprovalProgress; label: string }> {
    for (const layers of [1, 2, 3]) {
      for (const allowSame of [false, true]) {
        const approverSets = allowSame
          ? [
              ['u1', 'u2', 'u3'],
              ['u1', 'u1', 'u1'],
            ]
          : [['u1', 'u2', 'u3']];
        for (const approvers of approverSets) {
          for (let given = 0; given <= layers; given++) {
            const approvals = approvers.slice(0, given).map((user, index) => approve(index + 1, user));
            const progress = progressAfter(startApproval(settings(layers, allowSame)), approvals);
            const label = `${layers} layers, same ${allowSame}, ${approvers.join('/')}, ${given} given`;
            yield { progress, label };
            if (given < layers) {
              yield {
                progress: applyApproval(progress, decideApproval(progress, reject(given + 1, 'u3'))),
                label: `${label}, rejected`,
              };
            }
          }
        }
      }
    }
  }

  it('decides only for the layer waiting, by a holder of its key, within the settings, and moves one layer', () => {
    // Some thirteen thousand cases: each rule broken is written down, and the list must stay empty.
    const broken: string[] = [];
    const rule = (holds: boolean, what: string, where: string) => {
      if (!holds) broken.push(`${where}: ${what}`);
    };
    let decided = 0;
    let refused = 0;
    for (const { progress, label } of progresses()) {
      const waiting = currentLayer(progress);
      for (const kind of ['approve', 'reject'] as const) {
        for (const layer of ASKED_LAYERS) {
          for (const userId of USERS) {
            for (const keys of KEY_SETS) {
              const action =
                kind === 'approve' ? approve(layer, userId, keys) : reject(layer, userId, 'x', keys);
              const where = `${label}: ${kind} layer ${layer} by ${userId} with [${keys.join(',')}]`;
              let decision: ReturnType<typeof decideApproval>;
              try {
                decision = decideApproval(progress, action);
              } catch (error) {
                rule(error instanceof DomainError, 'a refusal is a DomainError', where);
                const code = (error as DomainError).code;
                if (progress.rejection || waiting === null) {
                  rule(
                    ['APPROVAL_REJECTED', 'APPROVAL_COMPLETE', 'APPROVAL_ALREADY_GIVEN'].includes(code),
                    `a decided approval refuses as decided, not ${code}`,
                    where,
                  );
                }
                refused += 1;
                continue;
              }
              decided += 1;
              rule(waiting === layer, 'only the waiting layer is decided', where);
              rule(keys.includes(ginApprovalKey(layer)), "only with the layer's key", where);
              const after = applyApproval(progress, decision);
              if (decision.kind === 'approved') {
                rule(
                  decision.final === (layer === progress.settings.layers),
                  'final at the last layer',
                  where,
                );
                rule(
                  progress.settings.allowSameApprover || !progress.approvals.some((a) => a.userId === userId),
                  'one user at one layer unless allowed',
                  where,
                );
                rule(after.approvals.length === progress.approvals.length + 1, 'one approval more', where);
                rule(
                  currentLayer(after) === (decision.final ? null : layer + 1),
                  'the next layer waits',
                  where,
                );
                rule(isApproved(after) === decision.final, 'approved after the last layer only', where);
                // A decision never counts twice: the same approval again is refused.
                rule(
                  refusalOf(() => decideApproval(after, action))?.code === 'APPROVAL_ALREADY_GIVEN',
                  'the same approval again is refused',
                  where,
                );
              } else {
                rule(
                  currentLayer(after) === null && !isApproved(after),
                  'a rejection ends the approval',
                  where,
                );
              }
            }
          }
        }
      }
    }
    expect(broken).toEqual([]);
    expect(decided).toBeGreaterThan(100);
    expect(refused).toBeGreaterThan(decided);
  });
});
