import { eventSchemas } from '@domain/events';
import {
  cloudEventJson,
  FEED_EVENT_TYPES,
  feedEventType,
  formatFeedPosition,
  parseFeedPosition,
  toCloudEvent,
} from '@domain/feed/cloud-events';
import { describe, expect, it } from 'vitest';

const event = {
  id: '0b8e6f7c-1c1e-4d3a-9a55-0d6f5cb1f0a1',
  stream: 'stock-tenant-a.mc1:wh1',
  revision: 4n,
  type: 'StockAdjusted',
  metadata: { tenantId: 'tenant-a', occurredAt: '2026-11-28T01:02:03.000Z' },
  position: { commit: 912n, prepare: 40_001n },
};

describe('CloudEvents of the feed', () => {
  it('makes a CloudEvents 1.0 event with the position and the stream revision as extensions', () => {
    expect(toCloudEvent({ ...event, data: { delta: -2, note: 'ü "q"' } })).toEqual({
      specversion: '1.0',
      id: event.id,
      source: '/kedai/tenants/tenant-a',
      type: 'my.kedai.StockAdjusted',
      subject: 'stock-tenant-a.mc1:wh1',
      time: '2026-11-28T01:02:03.000Z',
      datacontenttype: 'application/json',
      position: '912-40001',
      streamrevision: 4,
      data: { delta: -2, note: 'ü "q"' },
    });
  });

  it('writes the same event as JSON text with the stored data spliced in', () => {
    const data = { delta: -2, note: 'ü "q"', lines: [{ sku: 'A' }] };
    const text = cloudEventJson({ ...event, dataJson: JSON.stringify(data) });
    expect(JSON.parse(text)).toEqual(toCloudEvent({ ...event, data }));
  });

  it('reads back the positions it writes, and nothing else', () => {
    expect(parseFeedPosition(formatFeedPosition(event.position))).toEqual(event.position);
    for (const bad of ['', '12', '12-', '-3', '1.5', '1-2-3', 'a-1', ' 1-2', '99999999999999999999-1'])
      expect(parseFeedPosition(bad)).toBeNull();
    expect(parseFeedPosition('9223372036854775808-1')).toBeNull();
  });

  it('offers every registered event type but the platform’s own, by plain name or CloudEvents type', () => {
    expect(FEED_EVENT_TYPES).toEqual(
      Object.keys(eventSchemas)
        .filter((type) => type !== 'SystemStarted')
        .sort(),
    );
    expect(feedEventType('OrderShipped')).toBe('OrderShipped');
    expect(feedEventType('my.kedai.OrderShipped')).toBe('OrderShipped');
    expect(feedEventType('SystemStarted')).toBeUndefined();
    expect(feedEventType('toString')).toBeUndefined();
  });
});
