/**
 * The live views read models publish changes of (`{tenantId, view, ids}`) and console screens follow over the
 * websocket: one name per view, shared by projections/ and web/ so neither spells it again.
 */
export const LIVE_VIEWS = {
  stock: 'stock',
  streams: 'streams',
  orders: 'orders',
  orderCounts: 'orderCounts',
  orderReturns: 'orderReturns',
  batches: 'batches',
  scanChecks: 'scanChecks',
  printLog: 'printLog',
  purchases: 'purchases',
  goodsReceipts: 'goodsReceipts',
  averageCosts: 'averageCosts',
  goodsIssues: 'goodsIssues',
  transferRequests: 'transferRequests',
  transfers: 'transfers',
  promotions: 'promotions',
  pushLog: 'pushLog',
  listings: 'listings',
  salesDaily: 'salesDaily',
} as const;

export type LiveView = (typeof LIVE_VIEWS)[keyof typeof LIVE_VIEWS];

export const PRINT_LOG_VIEW = LIVE_VIEWS.printLog;
export const BATCHES_VIEW = LIVE_VIEWS.batches;
export const SCAN_CHECKS_VIEW = LIVE_VIEWS.scanChecks;
export const GOODS_ISSUE_VIEW = LIVE_VIEWS.goodsIssues;
export const AVERAGE_COSTS_VIEW = LIVE_VIEWS.averageCosts;
export const ORDERS_VIEW = LIVE_VIEWS.orders;
export const ORDER_COUNTS_VIEW = LIVE_VIEWS.orderCounts;
export const PURCHASES_VIEW = LIVE_VIEWS.purchases;
export const GOODS_RECEIPTS_VIEW = LIVE_VIEWS.goodsReceipts;
export const STREAM_CATALOGUE_VIEW = LIVE_VIEWS.streams;
export const STOCK_VIEW = LIVE_VIEWS.stock;
export const TRANSFER_REQUESTS_VIEW = LIVE_VIEWS.transferRequests;
export const TRANSFERS_VIEW = LIVE_VIEWS.transfers;
export const RETURNS_VIEW = LIVE_VIEWS.orderReturns;
export const LISTINGS_VIEW = LIVE_VIEWS.listings;
