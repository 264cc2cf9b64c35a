import type { InitialStock } from '@commands/inventory/initial-stock';
import type { ReferenceDeps } from '@commands/inventory/reference-support';
import type { EventStore } from '@infra/eventstore/port';

/** What the inventory reference routes share: their dependencies and tags. */

export type { StockOf } from '@commands/inventory/reference-support';

export interface InventoryDeps extends ReferenceDeps {
  /** Where a master code's new or changed codes announce the channel SKUs they link (channel-skus.ts). */
  store: EventStore;
  /** Absent (tests of the reference routes alone), the initial quantity is recorded on the master code only. */
  initialStock?: InitialStock;
}

export const tags = ['inventory'];
