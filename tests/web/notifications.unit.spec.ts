import { describe, expect, it } from 'vitest';
import { MAX_SHOWN, type Shown, withNotice } from '../../web/src/shell/notification-queue';

/** A newer notice replaces what it makes stale, so no old success lingers beside a newer error. */

const notice = (id: number, kind: Shown['kind'], message: string): Shown => ({ id, kind, message });

describe('notifications', () => {
  it('replaces an earlier success or info with a newer notice', () => {
    const saved = [notice(1, 'success', 'Saved'), notice(2, 'info', 'Import started')];
    expect(withNotice(saved, notice(3, 'error', 'The store is disconnected'))).toEqual([
      notice(3, 'error', 'The store is disconnected'),
    ]);
    expect(withNotice(saved, notice(3, 'success', 'Deleted'))).toEqual([notice(3, 'success', 'Deleted')]);
  });

  it('stacks a newer error below the earlier ones, without copies, at most a few', () => {
    let shown: Shown[] = [notice(1, 'error', 'A failed')];
    shown = withNotice(shown, notice(2, 'error', 'B failed'));
    expect(shown.map((item) => item.id)).toEqual([1, 2]);
    shown = withNotice(shown, notice(3, 'error', 'A failed'));
    expect(shown.map((item) => item.id)).toEqual([2, 3]);
    for (let id = 4; id < 10; id++) shown = withNotice(shown, notice(id, 'error', `failure ${id}`));
    expect(shown).toHaveLength(MAX_SHOWN);
    expect(shown.at(-1)?.id).toBe(9);
  });

  it('keeps errors when a success follows, the success below them', () => {
    const shown = withNotice([notice(1, 'error', 'A failed')], notice(2, 'success', 'B saved'));
    expect(shown.map((item) => item.id)).toEqual([1, 2]);
  });
});
