import { rateLimiter } from '@api/feed/rate-limit';
import { PERMISSION_AREAS, PERMISSION_KEYS, type PermissionKey } from '@domain/access/permissions';
import { appScope, readableTypes, readersOf, typesToRead } from '@domain/feed/apps';
import { FEED_EVENT_TYPES } from '@domain/feed/cloud-events';
import { describe, expect, it } from 'vitest';

const keys = (...list: PermissionKey[]) => new Set<PermissionKey>(list);

describe("an app's event types", () => {
  it('names the keys that let a user read every event type (a new type must say whose it is)', () => {
    expect(FEED_EVENT_TYPES.filter((type) => readersOf(type).length === 0)).toEqual([]);
    expect(readableTypes(new Set(PERMISSION_KEYS))).toEqual(FEED_EVENT_TYPES);
  });

  it('gives an app only the types its maker may read, by plain name or CloudEvents type', () => {
    const maker = keys('appstore', ...PERMISSION_AREAS.orders);
    expect(
      appScope(
        { name: ' Sync ', eventTypes: ['my.kedai.OrderShipped', 'BatchClosed', 'OrderShipped'] },
        maker,
      ),
    ).toEqual({
      name: 'Sync',
      eventTypes: ['BatchClosed', 'OrderShipped'],
    });
    expect(() => appScope({ name: 'x', eventTypes: ['StockAdjusted'] }, maker)).toThrow(
      expect.objectContaining({ code: 'FEED_TYPE_OUT_OF_SCOPE' }),
    );
    expect(() => appScope({ name: 'x', eventTypes: ['Nope'] }, maker)).toThrow(
      expect.objectContaining({ code: 'FEED_TYPE_UNKNOWN' }),
    );
    expect(() => appScope({ name: '  ', eventTypes: ['OrderShipped'] }, maker)).toThrow(
      expect.objectContaining({ code: 'APP_NAME_REQUIRED' }),
    );
    expect(() => appScope({ name: 'x', eventTypes: [] }, maker)).toThrow(
      expect.objectContaining({ code: 'APP_TYPES_REQUIRED' }),
    );
  });

  it('reads the types its maker may still read: all of them unless the read names some', () => {
    const app = { eventTypes: ['BatchClosed', 'StockAdjusted'], makerKeys: keys('appstore', 'orders-batch') };
    expect(typesToRead(app, undefined)).toEqual(['BatchClosed']);
    expect(typesToRead(app, ' my.kedai.BatchClosed ,')).toEqual(['BatchClosed']);
    expect(() => typesToRead(app, 'StockAdjusted')).toThrow(
      expect.objectContaining({ code: 'FEED_TYPE_OUT_OF_SCOPE' }),
    );
    expect(() => typesToRead({ ...app, makerKeys: keys('appstore') }, undefined)).toThrow(
      expect.objectContaining({ code: 'APP_CREATOR_CANNOT_READ' }),
    );
  });
});

describe('the rate of an app', () => {
  it('grants a burst, then a token per interval, each app its own bucket', () => {
    let now = 0;
    const limiter = rateLimiter({ perSecond: 2, burst: 3 }, () => now);
    expect([1, 2, 3].map(() => limiter.take('a'))).toEqual([0, 0, 0]);
    expect(limiter.take('a')).toBe(1);
    expect(limiter.take('b')).toBe(0);
    now = 500;
    expect(limiter.take('a')).toBe(0);
    expect(limiter.take('a')).toBe(1);
  });
});
