import { EventSchemaRegistry } from '@infra/eventstore/registry';
import { z } from 'zod';

/**
 * The one event type of the bench, the same payload for every contender: a small stock movement (~90 bytes of
 * data) with the metadata every Kedai event carries.
 */
export const BENCH_EVENT_TYPE = 'BenchStockAdjusted';
export const BENCH_TENANT = 'bench';

export const BenchStockAdjusted = z
  .object({
    sku: z.string().min(1),
    warehouseId: z.string().min(1),
    delta: z.number().int(),
    reason: z.string(),
  })
  .strict();
export type BenchStockAdjusted = z.infer<typeof BenchStockAdjusted>;

export function benchRegistry(): EventSchemaRegistry {
  return new EventSchemaRegistry().register(BENCH_EVENT_TYPE, BenchStockAdjusted);
}

export function benchData(writer: number, n: number): BenchStockAdjusted {
  return { sku: `SKU-${writer}-${n % 997}`, warehouseId: 'wh-kl-01', delta: (n % 7) - 3, reason: 'recount' };
}

export function benchMetadata(writer: number) {
  return {
    tenantId: BENCH_TENANT,
    userId: `user-${writer}`,
    occurredAt: new Date().toISOString(),
  };
}
