import { goodsReceiptEvents } from './goods-receipt';
import { purchaseEvents } from './purchase';

/** Every event of purchasing (orders and goods receive notes), for domain/events.ts. */
export const purchasingEvents = { ...purchaseEvents, ...goodsReceiptEvents } as const;
