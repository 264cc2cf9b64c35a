import {
  MOVEMENT_REASONS,
  type MovementReasonKind,
  movementReason,
  readMovementReason,
} from '@domain/inventory/movement-reasons';
import { LANGUAGES, translate } from '@infra/i18n';
import { describe, expect, it } from 'vitest';

/** Kedai's own movement reasons: what is stored reads back as its kind, and every kind is worded in every language. */
describe('movement reasons', () => {
  const kinds = Object.keys(MOVEMENT_REASONS) as MovementReasonKind[];
  const params = {
    order: 'SO-2611-77',
    transfer: 'TR-000012',
    po: 'PO-000003',
    grn: 'GRN-000004',
    gin: 'GIN-9',
  };

  it('reads back the kind and parameters of every reason it writes, from its own source only', () => {
    for (const kind of kinds) {
      const text = movementReason(kind, params);
      const read = readMovementReason(text, MOVEMENT_REASONS[kind].source);
      expect(read?.kind, text).toBe(kind);
      for (const [name, value] of Object.entries(read?.params ?? {}))
        expect(value).toBe(params[name as 'po']);
      expect(readMovementReason(text, null)).toBeNull();
      expect(readMovementReason(text, 'adjustment')).toBeNull();
    }
  });

  it('keeps the English earlier events hold', () => {
    expect(movementReason('order_moved')).toBe('Order moved');
    expect(movementReason('grn_received', { grn: 'GRN-1', po: 'PO-2' })).toBe(
      'Received: GRN GRN-1 (PO PO-2)',
    );
    expect(readMovementReason('Transfer TR-7: expectation withdrawn', 'transfer')).toEqual({
      kind: 'transfer_expectation_withdrawn',
      params: { transfer: 'TR-7' },
    });
  });

  it('words every kind in every language, with its parameters', () => {
    for (const language of LANGUAGES) {
      for (const kind of kinds) {
        const words = translate(language, `stock.reason.${kind}`, params);
        expect(words, `${language} ${kind}`).not.toBe(`stock.reason.${kind}`);
        expect(words).not.toMatch(/\{\{/);
        for (const name of MOVEMENT_REASONS[kind].text.matchAll(/\{\{(\w+)\}\}/g))
          expect(words).toContain(params[name[1] as 'po']);
      }
    }
  });
});
