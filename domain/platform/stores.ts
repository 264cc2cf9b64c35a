import { type ErrorTable, refuser } from '@domain/shared/errors';
import { TEXT_LIMITS } from '@domain/shared/limits';

/**
 * A seller's marketplace stores: connected through the marketplace's authorisation, within the package's "linked
 * marketplaces", each importing its orders every `import_interval_minutes`. Result codes 600–619.
 */

/** How often a store's orders are checked, in minutes. */
export const IMPORT_INTERVAL = { default: 30, min: 1, max: 1440 } as const;
export const STORE_NAME_MAX = TEXT_LIMITS.name;

export const StoreCode = {
  /** No such platform to connect a store on (yet). */
  platformUnsupported: 600,
  /** The callback's state is missing, made up or edited. */
  stateInvalid: 601,
  /** The connect link is older than 30 minutes. */
  stateExpired: 602,
  /** The authorisation was started by another account. */
  stateOtherAccount: 603,
  /** The callback lacks the code or the shop id. */
  callbackIncomplete: 604,
  /** The marketplace refused the authorisation code (used, expired, not ours). */
  authorizationRefused: 605,
  /** The marketplace could not be reached or failed (HTTP 503). */
  marketplaceUnavailable: 606,
  /** The package's "linked marketplaces" are all in use (HTTP 409). */
  limitReached: 607,
  intervalInvalid: 608,
  warehouseNotFound: 609,
  storeNotFound: 610,
  /** The store is disconnected: connect it again first (HTTP 409). */
  storeDisconnected: 611,
  /** An import of the store is running (HTTP 409). */
  importRunning: 612,
  nameInvalid: 613,
  /** A change without any field. */
  nothingToChange: 614,
} as const;

export type StoreErrorCode =
  | 'PLATFORM_UNSUPPORTED'
  | 'STATE_INVALID'
  | 'STATE_EXPIRED'
  | 'STATE_OTHER_ACCOUNT'
  | 'CALLBACK_INCOMPLETE'
  | 'AUTHORIZATION_REFUSED'
  | 'MARKETPLACE_UNAVAILABLE'
  | 'LIMIT_REACHED'
  | 'WAREHOUSE_NOT_FOUND'
  | 'STORE_NOT_FOUND'
  | 'STORE_DISCONNECTED'
  | 'IMPORT_RUNNING'
  | 'NOTHING_TO_CHANGE'
  | 'WORKFLOWS_UNAVAILABLE';

export const storeErrors = {
  PLATFORM_UNSUPPORTED: {
    status: 404,
    code: StoreCode.platformUnsupported,
    key: 'store.platform_unsupported',
  },
  STATE_INVALID: { status: 400, code: StoreCode.stateInvalid, key: 'store.state_invalid' },
  STATE_EXPIRED: { status: 400, code: StoreCode.stateExpired, key: 'store.state_expired' },
  STATE_OTHER_ACCOUNT: { status: 400, code: StoreCode.stateOtherAccount, key: 'store.state_other_account' },
  CALLBACK_INCOMPLETE: { status: 400, code: StoreCode.callbackIncomplete, key: 'store.callback_incomplete' },
  AUTHORIZATION_REFUSED: {
    status: 400,
    code: StoreCode.authorizationRefused,
    key: 'store.authorization_refused',
  },
  MARKETPLACE_UNAVAILABLE: {
    status: 503,
    code: StoreCode.marketplaceUnavailable,
    key: 'store.marketplace_unavailable',
  },
  LIMIT_REACHED: { status: 409, code: StoreCode.limitReached, key: 'store.limit_reached' },
  WAREHOUSE_NOT_FOUND: { status: 404, code: StoreCode.warehouseNotFound, key: 'store.warehouse_not_found' },
  STORE_NOT_FOUND: { status: 404, code: StoreCode.storeNotFound, key: 'store.not_found' },
  STORE_DISCONNECTED: { status: 409, code: StoreCode.storeDisconnected, key: 'store.disconnected_already' },
  IMPORT_RUNNING: { status: 409, code: StoreCode.importRunning, key: 'store.import_running' },
  NOTHING_TO_CHANGE: { status: 400, code: StoreCode.nothingToChange, key: 'store.nothing_to_change' },
  WORKFLOWS_UNAVAILABLE: { status: 503, code: 503, key: 'common.workflows_unavailable' },
} satisfies ErrorTable<StoreErrorCode>;

export const refuseStore = refuser(storeErrors);
