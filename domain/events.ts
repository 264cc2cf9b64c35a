import type { z } from 'zod';
import { batchEvents } from './batches/batch';
import { channelLinkEvents } from './channels/link-events';
import { pushLogEvents } from './channels/push-log';
import { goodsIssueEvents } from './goods-issue/events';
import { stockEvents } from './inventory/stock';
import { listingEvents } from './listings/listing';
import { orderEvents } from './orders/order';
import { systemEvents } from './platform/system';
import { promotionEvents } from './promotions/events';
import { pricingEvents } from './promotions/pricing';
import { purchasingEvents } from './purchases';
import { returnEvents } from './returns/return';
import { scanCheckEvents } from './scan/check';
import { transferEvents } from './transfers/transfer';
import { transferRequestEvents } from './transfers/transfer-request';

/** Every event type the system may append, with its schema. A type missing here cannot be appended. */
export const eventSchemas: Readonly<Record<string, z.ZodType>> = {
  ...systemEvents,
  ...stockEvents,
  ...goodsIssueEvents,
  ...transferRequestEvents,
  ...transferEvents,
  ...purchasingEvents,
  ...orderEvents,
  ...batchEvents,
  ...scanCheckEvents,
  ...returnEvents,
  ...promotionEvents,
  ...pricingEvents,
  ...pushLogEvents,
  ...channelLinkEvents,
  ...listingEvents,
};
