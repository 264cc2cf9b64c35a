import { averageCostProjection } from './average-cost';
import { batchesProjection } from './batches';
import { goodsIssueProjection } from './goods-issue';
import { listingsProjection } from './listings';
import { ordersProjection } from './orders';
import { fulfilmentProjection } from './print-log';
import { promotionsProjection } from './promotions';
import { purchasesProjection } from './purchases';
import { pushLogProjection } from './push-log';
import { reportFactsProjection } from './reports/facts';
import { salesDailyProjection } from './reports/sales-daily';
import { returnsProjection } from './returns';
import type { Projection } from './runtime/projection';
import { stockProjection } from './stock';
import { streamCatalogue } from './stream-catalogue';
import { transfersProjection } from './transfers';

/** Every read model the runtime keeps; `npm run projections -- rebuild <name>` takes these names. */
export const projections: readonly Projection[] = [
  streamCatalogue,
  stockProjection,
  transfersProjection,
  goodsIssueProjection,
  purchasesProjection,
  averageCostProjection,
  ordersProjection,
  batchesProjection,
  fulfilmentProjection,
  returnsProjection,
  promotionsProjection,
  pushLogProjection,
  listingsProjection,
  reportFactsProjection,
  salesDailyProjection,
];
