import { averageCostProjection } from './average-cost';
import { goodsIssueProjection } from './goods-issue';
import { purchasesProjection } from './purchases';
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
];
