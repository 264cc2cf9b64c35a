import type { InitialStock } from '@commands/inventory/initial-stock';
import type { ReferenceDeps } from '@commands/inventory/reference-support';

/** What the inventory reference routes share: their dependencies and tags. */

export type { StockOf } from '@commands/inventory/reference-support';

export interface InventoryDeps extends ReferenceDeps {
  /** Absent (tests of the reference routes alone), the initial quantity is recorded on the master code only. */
  initialStock?: InitialStock;
}

export const tags = ['inventory'];
