import { rule, ruleOf } from '@api/contracts/rules';
import { describe, expect, it } from 'vitest';

describe('validation rules', () => {
  it('tells one key named for several fields apart by its parameters, so each names its own field', () => {
    const first = rule(400, 'test.rules.too_long', { field: 'reason' });
    const second = rule(400, 'test.rules.too_long', { field: 'city' });
    expect(ruleOf(first)).toMatchObject({
      code: 400,
      key: 'test.rules.too_long',
      params: { field: 'reason' },
    });
    expect(ruleOf(second)).toMatchObject({
      code: 400,
      key: 'test.rules.too_long',
      params: { field: 'city' },
    });
    expect(ruleOf(rule(400, 'test.rules.plain'))).toMatchObject({ key: 'test.rules.plain', params: {} });
  });

  it('refuses one key named with two codes', () => {
    rule(400, 'test.rules.coded', { field: 'a' });
    expect(() => rule(401, 'test.rules.coded', { field: 'b' })).toThrow(/codes 400 and 401/);
  });
});
