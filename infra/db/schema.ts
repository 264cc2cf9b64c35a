import type { ColumnType, Generated, SelectType } from 'kysely';

/**
 * The typed shape of every table the migrations create. `tests/infra/db-schema.int.spec.ts` migrates a fresh
 * database and compares it with `columns` below, and `columns` is bound to these interfaces at compile time,
 * so neither side can drift.
 */

/** bigint columns: pg hands them over as strings; we write bigint or string. */
export type Int8 = ColumnType<string, bigint | string | number, bigint | string | number>;
export type Timestamp = ColumnType<Date, Date | string, Date | string>;
/** Columns with a default; kysely's Generated<> does not unwrap a ColumnType. */
export type GeneratedInt8 = ColumnType<
  string,
  bigint | string | number | undefined,
  bigint | string | number
>;
export type GeneratedTimestamp = ColumnType<Date, Date | string | undefined, Date | string>;
export type JsonValue = string | number | boolean | JsonValue[] | { [key: string]: JsonValue | null };
export type Json = ColumnType<JsonValue, string, string>;

export interface EsEventsTable {
  global_position: GeneratedInt8;
  transaction_id: Generated<string>;
  stream_id: string;
  stream_revision: Int8;
  event_id: string;
  type: string;
  data: Json;
  metadata: Json;
  created_at: GeneratedTimestamp;
}

export interface ProjectionCheckpointsTable {
  name: string;
  position_commit: Int8 | null;
  position_prepare: Int8 | null;
  status: Generated<'live' | 'rebuilding'>;
  rebuild_id: string | null;
  events_applied: GeneratedInt8;
  updated_at: GeneratedTimestamp;
}

export interface StreamCatalogueTable {
  tenant_id: string;
  stream_id: string;
  category: string;
  event_count: Int8;
  last_revision: Int8;
  last_event_type: string;
  first_event_at: Timestamp;
  last_event_at: Timestamp;
}

/** A column Postgres computes (GENERATED ALWAYS … STORED): read, never written. */
export type Computed<T> = ColumnType<T, never, never>;

/** The stock of a master code in a warehouse (projections/stock.ts). */
export interface StockLevelsTable {
  tenant_id: string;
  master_code_id: string;
  warehouse_id: string;
  on_hand: Int8;
  reserved: Int8;
  in_process: Int8;
  on_hold: Int8;
  pos_on_hold: Int8;
  supplier_on_hold: Int8;
  incoming: Int8;
  /** What the channels may sell: on hand − reserved − in process − the three holds. */
  available: Computed<string>;
  negative: Computed<boolean>;
  last_movement_at: Timestamp;
  movements: Int8;
  last_revision: Int8;
  last_position: Int8;
}

/** The stock movement ledger, one row per stock event (projections/stock.ts). */
export interface StockMovementsTable {
  tenant_id: string;
  master_code_id: string;
  warehouse_id: string;
  revision: Int8;
  event_id: string;
  occurred_at: Timestamp;
  action: string;
  mode: string | null;
  quantity: Int8;
  previous_stock: Int8;
  change: Int8;
  stock_in: Int8;
  stock_out: Int8;
  new_stock: Int8;
  reserved: Int8;
  in_process: Int8;
  on_hold: Int8;
  pos_on_hold: Int8;
  supplier_on_hold: Int8;
  incoming: Int8;
  counterpart_warehouse_id: string | null;
  reason: string | null;
  source_type: string | null;
  source_id: string | null;
  created_by: string | null;
  global_position: Int8;
}

// ---- accounts and the console shell (plain tables) ----

/** A column with a default, of any type. */
export type WithDefault<T> = ColumnType<T, T | undefined, T>;
/** numeric: pg hands it over as a string, to keep every cent. */
export type Numeric = ColumnType<string, string | number | undefined, string | number>;
export type JsonDefault = ColumnType<JsonValue, string | undefined, string>;

export interface PackagesTable {
  id: string;
  name: string;
  limits: Json;
  flags: JsonDefault;
  created_at: GeneratedTimestamp;
}

export interface TenantsTable {
  id: string;
  name: string;
  country: string;
  package_id: string;
  status: WithDefault<'pending' | 'active' | 'suspended'>;
  promo_code: string | null;
  business: JsonDefault;
  ewallet_balance: Numeric;
  created_at: GeneratedTimestamp;
}

export interface UserGroupsTable {
  id: string;
  tenant_id: string;
  name: string;
  permissions: WithDefault<string[]>;
  created_at: GeneratedTimestamp;
  updated_at: GeneratedTimestamp;
}

export type UserKind = 'owner' | 'subuser' | 'admin' | 'subadmin';
export type UserStatus = 'pending' | 'active' | 'inactive';

export interface UsersTable {
  id: string;
  tenant_id: string | null;
  kind: UserKind;
  username: string | null;
  email: string;
  first_name: string;
  last_name: WithDefault<string>;
  phone: WithDefault<string>;
  country: string | null;
  password_hash: string;
  pos_pin_hash: string | null;
  status: UserStatus;
  group_id: string | null;
  language: WithDefault<string>;
  email_verified_at: Timestamp | null;
  last_sign_in_at: Timestamp | null;
  created_at: GeneratedTimestamp;
  updated_at: GeneratedTimestamp;
}

export interface AccessTokensTable {
  token_hash: string;
  user_id: string;
  created_at: GeneratedTimestamp;
  expires_at: Timestamp;
  revoked_at: Timestamp | null;
  address: string | null;
}

export interface SignInFailuresTable {
  id: GeneratedInt8;
  scope: 'account' | 'address' | 'signup';
  key: string;
  at: GeneratedTimestamp;
}

export interface EmailVerificationsTable {
  user_id: string;
  code_hash: string;
  expires_at: Timestamp;
  attempts: WithDefault<number>;
  sends: WithDefault<number>;
  first_sent_at: GeneratedTimestamp;
  last_sent_at: GeneratedTimestamp;
}

export interface ResetLinksTable {
  token_hash: string;
  user_id: string;
  purpose: 'password' | 'pos_pin';
  expires_at: Timestamp;
  used_at: Timestamp | null;
  created_at: GeneratedTimestamp;
}

export interface MailOutboxTable {
  id: GeneratedInt8;
  recipient: string;
  subject: string;
  body: string;
  purpose: string;
  created_at: GeneratedTimestamp;
  sent_at: Timestamp | null;
  error: string | null;
}

export interface TableSettingsTable {
  user_id: string;
  settings: Json;
  updated_at: GeneratedTimestamp;
}

export interface AnnouncementsTable {
  id: string;
  subject: string;
  content: string;
  start_at: Timestamp;
  end_at: Timestamp;
  priority: number;
  is_active: boolean;
  requires_ack: boolean;
  country: string | null;
  prompt: boolean;
  created_by: string | null;
  created_at: GeneratedTimestamp;
  updated_at: GeneratedTimestamp;
}

export interface AnnouncementAcksTable {
  announcement_id: string;
  user_id: string;
  status: 100 | 110 | 120;
  dont_show_again: WithDefault<boolean>;
  updated_at: GeneratedTimestamp;
}

export interface CategoriesTable {
  id: string;
  tenant_id: string;
  platform: string;
  name: string;
  parent_id: string | null;
  created_at: GeneratedTimestamp;
  updated_at: GeneratedTimestamp;
}

export interface ActivityLogTable {
  id: GeneratedInt8;
  tenant_id: string | null;
  user_id: string | null;
  action: string;
  subject_type: string;
  subject_id: string;
  detail: JsonDefault;
  at: GeneratedTimestamp;
}

// ---- inventory reference data (plain tables; stock itself is events and projections) ----

export type InventoryCurrency = 'MYR' | 'SGD' | 'HKD' | 'TWD' | 'PHP';

export interface InventoryCategoriesTable {
  id: string;
  tenant_id: string;
  name: string;
  parent_id: string | null;
  created_at: GeneratedTimestamp;
  updated_at: GeneratedTimestamp;
}

export interface BrandsTable {
  id: string;
  tenant_id: string;
  name: string;
  created_at: GeneratedTimestamp;
  updated_at: GeneratedTimestamp;
}

export interface UnitsTable {
  id: string;
  tenant_id: string;
  name: string;
  created_at: GeneratedTimestamp;
  updated_at: GeneratedTimestamp;
}

export interface MasterCodesTable {
  id: string;
  tenant_id: string;
  code: string;
  name: string;
  type: 'standard' | 'combo';
  category_id: string | null;
  image_url: string | null;
  unit_price: Numeric;
  cost: Numeric;
  weight_kg: Numeric;
  seller_sku: WithDefault<string>;
  upc: WithDefault<string>;
  brand_id: string | null;
  einvoice_classification: string | null;
  remark: WithDefault<string>;
  status: WithDefault<'active' | 'inactive'>;
  soft_threshold: WithDefault<number>;
  initial_quantity: WithDefault<number>;
  pos_app_name: WithDefault<string>;
  unit_id: string | null;
  bound: WithDefault<boolean>;
  created_at: GeneratedTimestamp;
  updated_at: GeneratedTimestamp;
}

export interface MasterCodePricesTable {
  tenant_id: string;
  master_code_id: string;
  currency: InventoryCurrency;
  unit_price: Numeric;
}

export interface ComboItemsTable {
  tenant_id: string;
  combo_id: string;
  component_id: string;
  quantity: number;
  position: number;
}

export interface WarehousesTable {
  id: string;
  tenant_id: string;
  kind: 'warehouse' | 'branch';
  code: string;
  name: string;
  manager: WithDefault<string>;
  phone: WithDefault<string>;
  address: WithDefault<string>;
  location: WithDefault<string>;
  is_default: WithDefault<boolean>;
  use_address_on_receipt: WithDefault<boolean>;
  use_phone_on_receipt: WithDefault<boolean>;
  created_at: GeneratedTimestamp;
  updated_at: GeneratedTimestamp;
}

export interface RacksTable {
  id: string;
  tenant_id: string;
  warehouse_id: string;
  name: string;
  status: WithDefault<'occupied' | 'available'>;
  note: WithDefault<string>;
  created_at: GeneratedTimestamp;
  updated_at: GeneratedTimestamp;
}

export interface MasterCodeLocationsTable {
  tenant_id: string;
  master_code_id: string;
  warehouse_id: string;
  rack_id: string | null;
  note: WithDefault<string>;
  created_at: GeneratedTimestamp;
  updated_at: GeneratedTimestamp;
}

// ---- the stock API's plain tables (api/inventory/stock*.ts) ----

export interface InventorySettingsTable {
  tenant_id: string;
  refuse_negative_manual: WithDefault<boolean>;
  updated_by: string | null;
  updated_at: GeneratedTimestamp;
}

export type StockUploadStatus = 'running' | 'done' | 'failed';

export interface StockUploadsTable {
  id: string;
  tenant_id: string;
  user_id: string;
  filename: string;
  file_hash: string;
  status: StockUploadStatus;
  total: number;
  applied: WithDefault<number>;
  replayed: WithDefault<number>;
  failed: WithDefault<number>;
  errors: JsonDefault;
  created_at: GeneratedTimestamp;
  updated_at: GeneratedTimestamp;
  finished_at: Timestamp | null;
}

// ---- purchasing (issue 5; migration 20261122000500_purchases) ----

export type SupplierStatus = 'active' | 'inactive';

export interface SuppliersTable {
  id: string;
  tenant_id: string;
  code: WithDefault<string>;
  name: string;
  company: string;
  contact_number: string;
  email: WithDefault<string>;
  address: string;
  city: string;
  postal_code: string;
  state: string;
  country: string;
  currency: WithDefault<string>;
  vat_number: WithDefault<string>;
  status: WithDefault<SupplierStatus>;
  created_by: string | null;
  created_at: GeneratedTimestamp;
  updated_at: GeneratedTimestamp;
}

export interface PurchaseSettingsTable {
  tenant_id: string;
  purchase_approval: WithDefault<boolean>;
  goods_receipt_approval: WithDefault<boolean>;
  updated_by: string | null;
  updated_at: GeneratedTimestamp;
}

export interface PurchaseNumbersTable {
  tenant_id: string;
  kind: 'purchase' | 'goods_receipt';
  document_id: string;
  number: number;
}

/** A purchase order's list row (projections/purchases.ts). */
export interface PurchasesTable {
  tenant_id: string;
  id: string;
  po_number: string;
  reference: string;
  purchase_date: string;
  supplier_id: string;
  warehouse_id: string;
  status: string;
  item_count: number;
  quantity: Int8;
  received: Int8;
  subtotal: Numeric;
  discount: Numeric;
  total: Numeric;
  estimated_arrival: string | null;
  open_receipts: number;
  created_by: string;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** A goods receive note's list row (projections/purchases.ts). */
export interface GoodsReceiptsTable {
  tenant_id: string;
  id: string;
  grn_number: string;
  purchase_id: string;
  po_number: string;
  supplier_id: string;
  warehouse_id: string;
  status: number;
  reference: string;
  line_count: number;
  received: Int8;
  damaged: Int8;
  returned: Int8;
  approval_required: boolean;
  created_by: string;
  approved_by: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** The moving average cost of a master code (projections/average-cost.ts). */
export interface AverageCostsTable {
  tenant_id: string;
  master_code_id: string;
  on_hand: Int8;
  average_cost: Numeric;
  receipts: number;
  last_receipt_at: Timestamp | null;
  updated_at: Timestamp;
}

/** A receipt's unit cost, waiting for the stock event that brings its units in (projections/average-cost.ts). */
export interface AverageCostReceiptsTable {
  tenant_id: string;
  goods_receipt_id: string;
  master_code_id: string;
  quantity: Int8;
  unit_cost: Numeric;
}

/** A transfer request's list row (projections/transfers.ts). */
export interface TransferRequestsTable {
  tenant_id: string;
  id: string;
  reference: string;
  from_warehouse_id: string;
  to_warehouse_id: string;
  status: 'pending' | 'approved' | 'rejected' | 'cancelled';
  remark: string;
  reject_reason: string | null;
  line_count: number;
  total_quantity: Int8;
  transfer_id: string | null;
  created_by: string | null;
  created_at: Timestamp;
  approved_by: string | null;
  approved_at: Timestamp | null;
  rejected_by: string | null;
  rejected_at: Timestamp | null;
  cancelled_by: string | null;
  cancelled_at: Timestamp | null;
  updated_at: Timestamp;
}

/** A transfer's list row (projections/transfers.ts). */
export interface TransfersTable {
  tenant_id: string;
  id: string;
  reference: string;
  request_id: string | null;
  from_warehouse_id: string;
  to_warehouse_id: string;
  status: 'pending' | 'in_transit' | 'completed' | 'cancelled';
  confirmed: boolean;
  remark: string;
  cancel_reason: string | null;
  line_count: number;
  total_quantity: Int8;
  shipped_quantity: Int8;
  received_quantity: Int8;
  returned_quantity: Int8;
  created_by: string | null;
  created_at: Timestamp;
  confirmed_by: string | null;
  confirmed_at: Timestamp | null;
  shipped_by: string | null;
  shipped_at: Timestamp | null;
  received_by: string | null;
  received_at: Timestamp | null;
  cancelled_by: string | null;
  cancelled_at: Timestamp | null;
  completed_at: Timestamp | null;
  updated_at: Timestamp;
}

// ---- goods issue notes (domain/goods-issue, projections/goods-issue.ts) ----

/** The account's approval layers for goods issue notes; absent means 1 layer, a day's reminder, one user a layer. */
export interface ApprovalSettingsTable {
  tenant_id: string;
  layers: WithDefault<number>;
  reminder_seconds: WithDefault<number>;
  allow_same_approver: WithDefault<boolean>;
  updated_by: string | null;
  updated_at: GeneratedTimestamp;
}

/** The goods issue notes' list, one row per note, with the folded note in `state`. */
export interface GoodsIssuesTable {
  tenant_id: string;
  id: string;
  reference: string;
  reason: string;
  remark: string;
  warehouse_id: string;
  status: number;
  layers: number | null;
  current_layer: number | null;
  line_count: number;
  total_quantity: Int8;
  issue_failed: boolean;
  created_by: string;
  created_at: Timestamp;
  updated_at: Timestamp;
  last_revision: Int8;
  state: Json;
}

/** A marketplace store of a seller (integrations/stores): its shop, status and order import. */
export interface StoresTable {
  id: string;
  tenant_id: string;
  platform: string;
  name: string;
  shop_id: Int8;
  region: string;
  status: 'connected' | 'error' | 'disconnected';
  /** Null: the account's default warehouse. */
  warehouse_id: string | null;
  import_interval_minutes: WithDefault<number>;
  /** Every order updated before this instant has been imported. */
  import_checkpoint: Timestamp | null;
  last_import_at: Timestamp | null;
  last_import_orders: number | null;
  last_error: string | null;
  last_error_kind: string | null;
  last_error_at: Timestamp | null;
  connected_by: string | null;
  connected_at: Timestamp;
  disconnected_at: Timestamp | null;
  created_at: GeneratedTimestamp;
  updated_at: GeneratedTimestamp;
}

/** A store's marketplace tokens: never in an API answer. */
export interface StoreTokensTable {
  store_id: string;
  tenant_id: string;
  access_token: string;
  refresh_token: string;
  expires_at: Timestamp;
  updated_at: GeneratedTimestamp;
}

// ---- printing, returns and carrier manifests (issue 6; migration 20261122001000) ----

/** An account's print settings (company details; logo position, address display, font size per document). */
export interface PrintSettingsTable {
  tenant_id: string;
  settings: Json;
  logo: Buffer | null;
  logo_type: 'image/png' | 'image/jpeg' | null;
  updated_by: string | null;
  updated_at: GeneratedTimestamp;
}

/** What printing, returns and manifests look up of each order (projections/print-log.ts). */
export interface OrderShipmentsTable {
  tenant_id: string;
  order_id: string;
  order_number: string;
  store_id: string;
  platform: string;
  warehouse_id: string;
  tracking_number: string | null;
  shipping_provider: string | null;
  status: string;
  shipped_at: Timestamp | null;
  updated_at: Timestamp;
}

/** One row per print of an order's document (OrderPrinted). */
export interface PrintLogTable {
  tenant_id: string;
  id: string;
  order_id: string;
  order_number: string | null;
  tracking_number: string | null;
  document: 'AWB' | 'INV' | 'PL' | 'CL' | 'DO';
  origin: string;
  printed_by: string | null;
  printed_at: Timestamp;
}

/** The returns' list (projections/returns.ts), with the folded return in `state`. */
export interface OrderReturnsTable {
  tenant_id: string;
  id: string;
  order_id: string;
  order_number: string;
  tracking_number: string | null;
  store_id: string;
  platform: string;
  warehouse_id: string;
  action: string;
  reason: string;
  refund_to_buyer: Numeric;
  include_shipping: boolean;
  refund_reason: string;
  reversal_item_price: Numeric;
  currency: string;
  line_count: number;
  total_quantity: number;
  restocked_quantity: number;
  image_count: number;
  completed: boolean;
  created_by: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
  last_revision: Int8;
  state: Json;
}

/** An image attached to a return (uploaded first, attached when the return is created). */
export interface ReturnImagesTable {
  id: string;
  tenant_id: string;
  return_id: string | null;
  content_type: 'image/png' | 'image/jpeg' | 'image/webp';
  byte_size: number;
  data: Buffer;
  uploaded_by: string | null;
  created_at: GeneratedTimestamp;
}

/** A month's carrier manifest: the orders shipped that month, per carrier. */
export interface CarrierManifestsTable {
  id: string;
  tenant_id: string;
  month: string;
  total_shipped: number;
  carriers: Json;
  created_by: string | null;
  created_at: GeneratedTimestamp;
  updated_at: GeneratedTimestamp;
}

// ---- batches, auto batch and scan to verify (domain/batches, domain/scan, projections/batches.ts) ----

/** A batch's list row (projections/batches.ts). */
export interface BatchesTable {
  tenant_id: string;
  id: string;
  number: number;
  label: string;
  name: string;
  type: 'normal' | 'pre-order';
  status: 'open' | 'closed';
  picker_id: string | null;
  /** The day the batch is for, `yyyy-mm-dd`. */
  date: string;
  max_orders: number;
  split: 'none' | 'logistics' | 'payment';
  group_value: string | null;
  source: 'manual' | 'auto';
  config_id: string | null;
  order_ids: string[];
  total_orders: number;
  created_by: string | null;
  created_at: Timestamp;
  closed_at: Timestamp | null;
  updated_at: Timestamp;
}

/** An order's scan check (projections/batches.ts): who checks it, how far. */
export interface ScanChecksTable {
  tenant_id: string;
  order_id: string;
  round: number;
  status: 'open' | 'completed' | 'idle';
  picker_id: string;
  batch_id: string | null;
  tracking_number: string;
  scanned_units: number;
  required_units: number;
  opened_at: Timestamp;
  completed_at: Timestamp | null;
  /** The check folded by its own evolve (domain/scan/check.ts). */
  state: Json;
  updated_at: Timestamp;
}

/** Which batch holds an order: the write-side guard against two batches taking one order (commands/batches). */
export interface BatchClaimsTable {
  tenant_id: string;
  order_id: string;
  batch_id: string;
  /** The batch was recorded; an unconfirmed claim left by a crash expires. */
  confirmed: boolean;
  claimed_at: Timestamp;
}

/** Each account's batch number sequence. */
export interface BatchNumbersTable {
  tenant_id: string;
  last_number: Int8;
}

/** An auto batch configuration (spec §3 "Auto batch"). */
export interface AutoBatchConfigsTable {
  id: string;
  tenant_id: string;
  name: string;
  active: boolean;
  interval_hours: number;
  start_time: string;
  end_time: string;
  max_orders: number;
  split: 'none' | 'logistics' | 'payment';
  type: 'normal' | 'pre-order';
  store_ids: string[];
  platforms: string[];
  prefix: string;
  digits: number;
  timezone: string;
  fingerprint: string;
  last_run_at: Timestamp | null;
  last_batch_count: number | null;
  created_by: string | null;
  created_at: GeneratedTimestamp;
  updated_at: GeneratedTimestamp;
}

// ---- the order board (projections/orders.ts) ----

/** An order's board row: what the order lists show, filter and sort on; the folded order in `state`. */
export interface OrdersTable {
  tenant_id: string;
  id: string;
  order_number: string;
  store_id: string;
  platform: string;
  status: string;
  marketplace_status: string;
  payment_method: string;
  cod: boolean;
  currency: string;
  total_amount: Numeric;
  ordered_at: Timestamp;
  paid_at: Timestamp | null;
  tracking_number: string | null;
  shipping_provider: string | null;
  buyer_username: string | null;
  buyer_name: string;
  warehouse_id: string;
  batch_id: string | null;
  item_count: number;
  line_count: number;
  item_not_found: boolean;
  out_of_stock: boolean;
  pre_order: boolean;
  printed: string[];
  preview: boolean;
  stock_stage: string;
  split_from: string | null;
  scanned_at: Timestamp | null;
  scanned_by: string | null;
  shipped_at: Timestamp | null;
  cancelled_at: Timestamp | null;
  cancel_reason: string | null;
  imported_at: Timestamp;
  updated_at: Timestamp;
  state: Json;
}

/** An order's line as the board and pick lists read it. */
export interface OrderLinesTable {
  tenant_id: string;
  order_id: string;
  line_id: string;
  position: number;
  sku: string;
  seller_sku: string;
  name: string;
  variation: string | null;
  quantity: number;
  unit_price: Numeric;
  master_code_id: string | null;
  combo: boolean;
  removed: boolean;
  short: boolean;
}

/** How many orders a store has in each status: the board's tab counts. */
export interface OrderCountsTable {
  tenant_id: string;
  store_id: string;
  status: string;
  platform: string;
  orders: Int8;
}

export interface Database {
  es_events: EsEventsTable;
  projection_checkpoints: ProjectionCheckpointsTable;
  stream_catalogue: StreamCatalogueTable;
  stock_levels: StockLevelsTable;
  stock_movements: StockMovementsTable;
  packages: PackagesTable;
  tenants: TenantsTable;
  user_groups: UserGroupsTable;
  users: UsersTable;
  access_tokens: AccessTokensTable;
  sign_in_failures: SignInFailuresTable;
  email_verifications: EmailVerificationsTable;
  reset_links: ResetLinksTable;
  mail_outbox: MailOutboxTable;
  table_settings: TableSettingsTable;
  announcements: AnnouncementsTable;
  announcement_acks: AnnouncementAcksTable;
  categories: CategoriesTable;
  activity_log: ActivityLogTable;
  inventory_categories: InventoryCategoriesTable;
  brands: BrandsTable;
  units: UnitsTable;
  master_codes: MasterCodesTable;
  master_code_prices: MasterCodePricesTable;
  combo_items: ComboItemsTable;
  warehouses: WarehousesTable;
  racks: RacksTable;
  master_code_locations: MasterCodeLocationsTable;
  inventory_settings: InventorySettingsTable;
  stock_uploads: StockUploadsTable;
  transfer_requests: TransferRequestsTable;
  transfers: TransfersTable;
  suppliers: SuppliersTable;
  purchase_settings: PurchaseSettingsTable;
  purchase_numbers: PurchaseNumbersTable;
  purchases: PurchasesTable;
  goods_receipts: GoodsReceiptsTable;
  average_costs: AverageCostsTable;
  average_cost_receipts: AverageCostReceiptsTable;
  approval_settings: ApprovalSettingsTable;
  goods_issues: GoodsIssuesTable;
  orders: OrdersTable;
  order_lines: OrderLinesTable;
  order_counts: OrderCountsTable;
  stores: StoresTable;
  store_tokens: StoreTokensTable;
  print_settings: PrintSettingsTable;
  order_shipments: OrderShipmentsTable;
  print_log: PrintLogTable;
  order_returns: OrderReturnsTable;
  return_images: ReturnImagesTable;
  carrier_manifests: CarrierManifestsTable;
  batches: BatchesTable;
  scan_checks: ScanChecksTable;
  batch_claims: BatchClaimsTable;
  batch_numbers: BatchNumbersTable;
  auto_batch_configs: AutoBatchConfigsTable;
}

// ---- the schema as Postgres reports it, tied to the interfaces above ----

type PgType =
  | 'text'
  | 'int8'
  | 'int4'
  | 'bool'
  | 'numeric'
  | '_text'
  | 'uuid'
  | 'xid8'
  | 'jsonb'
  | 'bytea'
  | 'timestamptz';
interface ColumnSpec<T> {
  type: PgType;
  nullable: null extends SelectType<T> ? true : false;
}
type SchemaOf<D> = { [Table in keyof D]: { [Column in keyof D[Table]]-?: ColumnSpec<D[Table][Column]> } };

const col = <T extends string, N extends boolean>(type: T, nullable: N) => ({ type, nullable });

export const columns = {
  es_events: {
    global_position: col('int8', false),
    transaction_id: col('xid8', false),
    stream_id: col('text', false),
    stream_revision: col('int8', false),
    event_id: col('uuid', false),
    type: col('text', false),
    data: col('jsonb', false),
    metadata: col('jsonb', false),
    created_at: col('timestamptz', false),
  },
  projection_checkpoints: {
    name: col('text', false),
    position_commit: col('int8', true),
    position_prepare: col('int8', true),
    status: col('text', false),
    rebuild_id: col('text', true),
    events_applied: col('int8', false),
    updated_at: col('timestamptz', false),
  },
  stream_catalogue: {
    tenant_id: col('text', false),
    stream_id: col('text', false),
    category: col('text', false),
    event_count: col('int8', false),
    last_revision: col('int8', false),
    last_event_type: col('text', false),
    first_event_at: col('timestamptz', false),
    last_event_at: col('timestamptz', false),
  },
  stock_levels: {
    tenant_id: col('text', false),
    master_code_id: col('text', false),
    warehouse_id: col('text', false),
    on_hand: col('int8', false),
    reserved: col('int8', false),
    in_process: col('int8', false),
    on_hold: col('int8', false),
    pos_on_hold: col('int8', false),
    supplier_on_hold: col('int8', false),
    incoming: col('int8', false),
    available: col('int8', false),
    negative: col('bool', false),
    last_movement_at: col('timestamptz', false),
    movements: col('int8', false),
    last_revision: col('int8', false),
    last_position: col('int8', false),
  },
  stock_movements: {
    tenant_id: col('text', false),
    master_code_id: col('text', false),
    warehouse_id: col('text', false),
    revision: col('int8', false),
    event_id: col('uuid', false),
    occurred_at: col('timestamptz', false),
    action: col('text', false),
    mode: col('text', true),
    quantity: col('int8', false),
    previous_stock: col('int8', false),
    change: col('int8', false),
    stock_in: col('int8', false),
    stock_out: col('int8', false),
    new_stock: col('int8', false),
    reserved: col('int8', false),
    in_process: col('int8', false),
    on_hold: col('int8', false),
    pos_on_hold: col('int8', false),
    supplier_on_hold: col('int8', false),
    incoming: col('int8', false),
    counterpart_warehouse_id: col('text', true),
    reason: col('text', true),
    source_type: col('text', true),
    source_id: col('text', true),
    created_by: col('text', true),
    global_position: col('int8', false),
  },
  packages: {
    id: col('text', false),
    name: col('text', false),
    limits: col('jsonb', false),
    flags: col('jsonb', false),
    created_at: col('timestamptz', false),
  },
  tenants: {
    id: col('text', false),
    name: col('text', false),
    country: col('text', false),
    package_id: col('text', false),
    status: col('text', false),
    promo_code: col('text', true),
    business: col('jsonb', false),
    ewallet_balance: col('numeric', false),
    created_at: col('timestamptz', false),
  },
  user_groups: {
    id: col('uuid', false),
    tenant_id: col('text', false),
    name: col('text', false),
    permissions: col('_text', false),
    created_at: col('timestamptz', false),
    updated_at: col('timestamptz', false),
  },
  users: {
    id: col('uuid', false),
    tenant_id: col('text', true),
    kind: col('text', false),
    username: col('text', true),
    email: col('text', false),
    first_name: col('text', false),
    last_name: col('text', false),
    phone: col('text', false),
    country: col('text', true),
    password_hash: col('text', false),
    pos_pin_hash: col('text', true),
    status: col('text', false),
    group_id: col('uuid', true),
    language: col('text', false),
    email_verified_at: col('timestamptz', true),
    last_sign_in_at: col('timestamptz', true),
    created_at: col('timestamptz', false),
    updated_at: col('timestamptz', false),
  },
  access_tokens: {
    token_hash: col('text', false),
    user_id: col('uuid', false),
    created_at: col('timestamptz', false),
    expires_at: col('timestamptz', false),
    revoked_at: col('timestamptz', true),
    address: col('text', true),
  },
  sign_in_failures: {
    id: col('int8', false),
    scope: col('text', false),
    key: col('text', false),
    at: col('timestamptz', false),
  },
  email_verifications: {
    user_id: col('uuid', false),
    code_hash: col('text', false),
    expires_at: col('timestamptz', false),
    attempts: col('int4', false),
    sends: col('int4', false),
    first_sent_at: col('timestamptz', false),
    last_sent_at: col('timestamptz', false),
  },
  reset_links: {
    token_hash: col('text', false),
    user_id: col('uuid', false),
    purpose: col('text', false),
    expires_at: col('timestamptz', false),
    used_at: col('timestamptz', true),
    created_at: col('timestamptz', false),
  },
  mail_outbox: {
    id: col('int8', false),
    recipient: col('text', false),
    subject: col('text', false),
    body: col('text', false),
    purpose: col('text', false),
    created_at: col('timestamptz', false),
    sent_at: col('timestamptz', true),
    error: col('text', true),
  },
  table_settings: {
    user_id: col('uuid', false),
    settings: col('jsonb', false),
    updated_at: col('timestamptz', false),
  },
  announcements: {
    id: col('uuid', false),
    subject: col('text', false),
    content: col('text', false),
    start_at: col('timestamptz', false),
    end_at: col('timestamptz', false),
    priority: col('int4', false),
    is_active: col('bool', false),
    requires_ack: col('bool', false),
    country: col('text', true),
    prompt: col('bool', false),
    created_by: col('uuid', true),
    created_at: col('timestamptz', false),
    updated_at: col('timestamptz', false),
  },
  announcement_acks: {
    announcement_id: col('uuid', false),
    user_id: col('uuid', false),
    status: col('int4', false),
    dont_show_again: col('bool', false),
    updated_at: col('timestamptz', false),
  },
  categories: {
    id: col('uuid', false),
    tenant_id: col('text', false),
    platform: col('text', false),
    name: col('text', false),
    parent_id: col('uuid', true),
    created_at: col('timestamptz', false),
    updated_at: col('timestamptz', false),
  },
  activity_log: {
    id: col('int8', false),
    tenant_id: col('text', true),
    user_id: col('uuid', true),
    action: col('text', false),
    subject_type: col('text', false),
    subject_id: col('text', false),
    detail: col('jsonb', false),
    at: col('timestamptz', false),
  },
  inventory_categories: {
    id: col('uuid', false),
    tenant_id: col('text', false),
    name: col('text', false),
    parent_id: col('uuid', true),
    created_at: col('timestamptz', false),
    updated_at: col('timestamptz', false),
  },
  brands: {
    id: col('uuid', false),
    tenant_id: col('text', false),
    name: col('text', false),
    created_at: col('timestamptz', false),
    updated_at: col('timestamptz', false),
  },
  units: {
    id: col('uuid', false),
    tenant_id: col('text', false),
    name: col('text', false),
    created_at: col('timestamptz', false),
    updated_at: col('timestamptz', false),
  },
  master_codes: {
    id: col('uuid', false),
    tenant_id: col('text', false),
    code: col('text', false),
    name: col('text', false),
    type: col('text', false),
    category_id: col('uuid', true),
    image_url: col('text', true),
    unit_price: col('numeric', false),
    cost: col('numeric', false),
    weight_kg: col('numeric', false),
    seller_sku: col('text', false),
    upc: col('text', false),
    brand_id: col('uuid', true),
    einvoice_classification: col('text', true),
    remark: col('text', false),
    status: col('text', false),
    soft_threshold: col('int4', false),
    initial_quantity: col('int4', false),
    pos_app_name: col('text', false),
    unit_id: col('uuid', true),
    bound: col('bool', false),
    created_at: col('timestamptz', false),
    updated_at: col('timestamptz', false),
  },
  master_code_prices: {
    tenant_id: col('text', false),
    master_code_id: col('uuid', false),
    currency: col('text', false),
    unit_price: col('numeric', false),
  },
  combo_items: {
    tenant_id: col('text', false),
    combo_id: col('uuid', false),
    component_id: col('uuid', false),
    quantity: col('int4', false),
    position: col('int4', false),
  },
  warehouses: {
    id: col('uuid', false),
    tenant_id: col('text', false),
    kind: col('text', false),
    code: col('text', false),
    name: col('text', false),
    manager: col('text', false),
    phone: col('text', false),
    address: col('text', false),
    location: col('text', false),
    is_default: col('bool', false),
    use_address_on_receipt: col('bool', false),
    use_phone_on_receipt: col('bool', false),
    created_at: col('timestamptz', false),
    updated_at: col('timestamptz', false),
  },
  racks: {
    id: col('uuid', false),
    tenant_id: col('text', false),
    warehouse_id: col('uuid', false),
    name: col('text', false),
    status: col('text', false),
    note: col('text', false),
    created_at: col('timestamptz', false),
    updated_at: col('timestamptz', false),
  },
  master_code_locations: {
    tenant_id: col('text', false),
    master_code_id: col('uuid', false),
    warehouse_id: col('uuid', false),
    rack_id: col('uuid', true),
    note: col('text', false),
    created_at: col('timestamptz', false),
    updated_at: col('timestamptz', false),
  },
  inventory_settings: {
    tenant_id: col('text', false),
    refuse_negative_manual: col('bool', false),
    updated_by: col('uuid', true),
    updated_at: col('timestamptz', false),
  },
  stock_uploads: {
    id: col('uuid', false),
    tenant_id: col('text', false),
    user_id: col('uuid', false),
    filename: col('text', false),
    file_hash: col('text', false),
    status: col('text', false),
    total: col('int4', false),
    applied: col('int4', false),
    replayed: col('int4', false),
    failed: col('int4', false),
    errors: col('jsonb', false),
    created_at: col('timestamptz', false),
    updated_at: col('timestamptz', false),
    finished_at: col('timestamptz', true),
  },
  suppliers: {
    id: col('uuid', false),
    tenant_id: col('text', false),
    code: col('text', false),
    name: col('text', false),
    company: col('text', false),
    contact_number: col('text', false),
    email: col('text', false),
    address: col('text', false),
    city: col('text', false),
    postal_code: col('text', false),
    state: col('text', false),
    country: col('text', false),
    currency: col('text', false),
    vat_number: col('text', false),
    status: col('text', false),
    created_by: col('uuid', true),
    created_at: col('timestamptz', false),
    updated_at: col('timestamptz', false),
  },
  purchase_settings: {
    tenant_id: col('text', false),
    purchase_approval: col('bool', false),
    goods_receipt_approval: col('bool', false),
    updated_by: col('uuid', true),
    updated_at: col('timestamptz', false),
  },
  purchase_numbers: {
    tenant_id: col('text', false),
    kind: col('text', false),
    document_id: col('text', false),
    number: col('int4', false),
  },
  purchases: {
    tenant_id: col('text', false),
    id: col('text', false),
    po_number: col('text', false),
    reference: col('text', false),
    purchase_date: col('text', false),
    supplier_id: col('text', false),
    warehouse_id: col('text', false),
    status: col('text', false),
    item_count: col('int4', false),
    quantity: col('int8', false),
    received: col('int8', false),
    subtotal: col('numeric', false),
    discount: col('numeric', false),
    total: col('numeric', false),
    estimated_arrival: col('text', true),
    open_receipts: col('int4', false),
    created_by: col('text', false),
    created_at: col('timestamptz', false),
    updated_at: col('timestamptz', false),
  },
  goods_receipts: {
    tenant_id: col('text', false),
    id: col('text', false),
    grn_number: col('text', false),
    purchase_id: col('text', false),
    po_number: col('text', false),
    supplier_id: col('text', false),
    warehouse_id: col('text', false),
    status: col('int4', false),
    reference: col('text', false),
    line_count: col('int4', false),
    received: col('int8', false),
    damaged: col('int8', false),
    returned: col('int8', false),
    approval_required: col('bool', false),
    created_by: col('text', false),
    approved_by: col('text', true),
    created_at: col('timestamptz', false),
    updated_at: col('timestamptz', false),
  },
  average_costs: {
    tenant_id: col('text', false),
    master_code_id: col('text', false),
    on_hand: col('int8', false),
    average_cost: col('numeric', false),
    receipts: col('int4', false),
    last_receipt_at: col('timestamptz', true),
    updated_at: col('timestamptz', false),
  },
  average_cost_receipts: {
    tenant_id: col('text', false),
    goods_receipt_id: col('text', false),
    master_code_id: col('text', false),
    quantity: col('int8', false),
    unit_cost: col('numeric', false),
  },
  transfer_requests: {
    tenant_id: col('text', false),
    id: col('uuid', false),
    reference: col('text', false),
    from_warehouse_id: col('uuid', false),
    to_warehouse_id: col('uuid', false),
    status: col('text', false),
    remark: col('text', false),
    reject_reason: col('text', true),
    line_count: col('int4', false),
    total_quantity: col('int8', false),
    transfer_id: col('uuid', true),
    created_by: col('uuid', true),
    created_at: col('timestamptz', false),
    approved_by: col('uuid', true),
    approved_at: col('timestamptz', true),
    rejected_by: col('uuid', true),
    rejected_at: col('timestamptz', true),
    cancelled_by: col('uuid', true),
    cancelled_at: col('timestamptz', true),
    updated_at: col('timestamptz', false),
  },
  transfers: {
    tenant_id: col('text', false),
    id: col('uuid', false),
    reference: col('text', false),
    request_id: col('uuid', true),
    from_warehouse_id: col('uuid', false),
    to_warehouse_id: col('uuid', false),
    status: col('text', false),
    confirmed: col('bool', false),
    remark: col('text', false),
    cancel_reason: col('text', true),
    line_count: col('int4', false),
    total_quantity: col('int8', false),
    shipped_quantity: col('int8', false),
    received_quantity: col('int8', false),
    returned_quantity: col('int8', false),
    created_by: col('uuid', true),
    created_at: col('timestamptz', false),
    confirmed_by: col('uuid', true),
    confirmed_at: col('timestamptz', true),
    shipped_by: col('uuid', true),
    shipped_at: col('timestamptz', true),
    received_by: col('uuid', true),
    received_at: col('timestamptz', true),
    cancelled_by: col('uuid', true),
    cancelled_at: col('timestamptz', true),
    completed_at: col('timestamptz', true),
    updated_at: col('timestamptz', false),
  },
  approval_settings: {
    tenant_id: col('text', false),
    layers: col('int4', false),
    reminder_seconds: col('int4', false),
    allow_same_approver: col('bool', false),
    updated_by: col('uuid', true),
    updated_at: col('timestamptz', false),
  },
  orders: {
    tenant_id: col('text', false),
    id: col('text', false),
    order_number: col('text', false),
    store_id: col('text', false),
    platform: col('text', false),
    status: col('text', false),
    marketplace_status: col('text', false),
    payment_method: col('text', false),
    cod: col('bool', false),
    currency: col('text', false),
    total_amount: col('numeric', false),
    ordered_at: col('timestamptz', false),
    paid_at: col('timestamptz', true),
    tracking_number: col('text', true),
    shipping_provider: col('text', true),
    buyer_username: col('text', true),
    buyer_name: col('text', false),
    warehouse_id: col('text', false),
    batch_id: col('text', true),
    item_count: col('int4', false),
    line_count: col('int4', false),
    item_not_found: col('bool', false),
    out_of_stock: col('bool', false),
    pre_order: col('bool', false),
    printed: col('_text', false),
    preview: col('bool', false),
    stock_stage: col('text', false),
    split_from: col('text', true),
    scanned_at: col('timestamptz', true),
    scanned_by: col('text', true),
    shipped_at: col('timestamptz', true),
    cancelled_at: col('timestamptz', true),
    cancel_reason: col('text', true),
    imported_at: col('timestamptz', false),
    updated_at: col('timestamptz', false),
    state: col('jsonb', false),
  },
  order_lines: {
    tenant_id: col('text', false),
    order_id: col('text', false),
    line_id: col('text', false),
    position: col('int4', false),
    sku: col('text', false),
    seller_sku: col('text', false),
    name: col('text', false),
    variation: col('text', true),
    quantity: col('int4', false),
    unit_price: col('numeric', false),
    master_code_id: col('text', true),
    combo: col('bool', false),
    removed: col('bool', false),
    short: col('bool', false),
  },
  order_counts: {
    tenant_id: col('text', false),
    store_id: col('text', false),
    status: col('text', false),
    platform: col('text', false),
    orders: col('int8', false),
  },
  goods_issues: {
    tenant_id: col('text', false),
    id: col('text', false),
    reference: col('text', false),
    reason: col('text', false),
    remark: col('text', false),
    warehouse_id: col('text', false),
    status: col('int4', false),
    layers: col('int4', true),
    current_layer: col('int4', true),
    line_count: col('int4', false),
    total_quantity: col('int8', false),
    issue_failed: col('bool', false),
    created_by: col('text', false),
    created_at: col('timestamptz', false),
    updated_at: col('timestamptz', false),
    last_revision: col('int8', false),
    state: col('jsonb', false),
  },
  stores: {
    id: col('uuid', false),
    tenant_id: col('text', false),
    platform: col('text', false),
    name: col('text', false),
    shop_id: col('int8', false),
    region: col('text', false),
    status: col('text', false),
    warehouse_id: col('uuid', true),
    import_interval_minutes: col('int4', false),
    import_checkpoint: col('timestamptz', true),
    last_import_at: col('timestamptz', true),
    last_import_orders: col('int4', true),
    last_error: col('text', true),
    last_error_kind: col('text', true),
    last_error_at: col('timestamptz', true),
    connected_by: col('uuid', true),
    connected_at: col('timestamptz', false),
    disconnected_at: col('timestamptz', true),
    created_at: col('timestamptz', false),
    updated_at: col('timestamptz', false),
  },
  store_tokens: {
    store_id: col('uuid', false),
    tenant_id: col('text', false),
    access_token: col('text', false),
    refresh_token: col('text', false),
    expires_at: col('timestamptz', false),
    updated_at: col('timestamptz', false),
  },
  print_settings: {
    tenant_id: col('text', false),
    settings: col('jsonb', false),
    logo: col('bytea', true),
    logo_type: col('text', true),
    updated_by: col('uuid', true),
    updated_at: col('timestamptz', false),
  },
  order_shipments: {
    tenant_id: col('text', false),
    order_id: col('text', false),
    order_number: col('text', false),
    store_id: col('text', false),
    platform: col('text', false),
    warehouse_id: col('text', false),
    tracking_number: col('text', true),
    shipping_provider: col('text', true),
    status: col('text', false),
    shipped_at: col('timestamptz', true),
    updated_at: col('timestamptz', false),
  },
  print_log: {
    tenant_id: col('text', false),
    id: col('uuid', false),
    order_id: col('text', false),
    order_number: col('text', true),
    tracking_number: col('text', true),
    document: col('text', false),
    origin: col('text', false),
    printed_by: col('text', true),
    printed_at: col('timestamptz', false),
  },
  order_returns: {
    tenant_id: col('text', false),
    id: col('text', false),
    order_id: col('text', false),
    order_number: col('text', false),
    tracking_number: col('text', true),
    store_id: col('text', false),
    platform: col('text', false),
    warehouse_id: col('text', false),
    action: col('text', false),
    reason: col('text', false),
    refund_to_buyer: col('numeric', false),
    include_shipping: col('bool', false),
    refund_reason: col('text', false),
    reversal_item_price: col('numeric', false),
    currency: col('text', false),
    line_count: col('int4', false),
    total_quantity: col('int4', false),
    restocked_quantity: col('int4', false),
    image_count: col('int4', false),
    completed: col('bool', false),
    created_by: col('text', true),
    created_at: col('timestamptz', false),
    updated_at: col('timestamptz', false),
    last_revision: col('int8', false),
    state: col('jsonb', false),
  },
  return_images: {
    id: col('uuid', false),
    tenant_id: col('text', false),
    return_id: col('text', true),
    content_type: col('text', false),
    byte_size: col('int4', false),
    data: col('bytea', false),
    uploaded_by: col('uuid', true),
    created_at: col('timestamptz', false),
  },
  carrier_manifests: {
    id: col('uuid', false),
    tenant_id: col('text', false),
    month: col('text', false),
    total_shipped: col('int4', false),
    carriers: col('jsonb', false),
    created_by: col('uuid', true),
    created_at: col('timestamptz', false),
    updated_at: col('timestamptz', false),
  },
  batches: {
    tenant_id: col('text', false),
    id: col('uuid', false),
    number: col('int4', false),
    label: col('text', false),
    name: col('text', false),
    type: col('text', false),
    status: col('text', false),
    picker_id: col('uuid', true),
    date: col('text', false),
    max_orders: col('int4', false),
    split: col('text', false),
    group_value: col('text', true),
    source: col('text', false),
    config_id: col('uuid', true),
    order_ids: col('_text', false),
    total_orders: col('int4', false),
    created_by: col('uuid', true),
    created_at: col('timestamptz', false),
    closed_at: col('timestamptz', true),
    updated_at: col('timestamptz', false),
  },
  scan_checks: {
    tenant_id: col('text', false),
    order_id: col('text', false),
    round: col('int4', false),
    status: col('text', false),
    picker_id: col('text', false),
    batch_id: col('text', true),
    tracking_number: col('text', false),
    scanned_units: col('int4', false),
    required_units: col('int4', false),
    opened_at: col('timestamptz', false),
    completed_at: col('timestamptz', true),
    state: col('jsonb', false),
    updated_at: col('timestamptz', false),
  },
  batch_claims: {
    tenant_id: col('text', false),
    order_id: col('text', false),
    batch_id: col('text', false),
    confirmed: col('bool', false),
    claimed_at: col('timestamptz', false),
  },
  batch_numbers: {
    tenant_id: col('text', false),
    last_number: col('int8', false),
  },
  auto_batch_configs: {
    id: col('uuid', false),
    tenant_id: col('text', false),
    name: col('text', false),
    active: col('bool', false),
    interval_hours: col('int4', false),
    start_time: col('text', false),
    end_time: col('text', false),
    max_orders: col('int4', false),
    split: col('text', false),
    type: col('text', false),
    store_ids: col('_text', false),
    platforms: col('_text', false),
    prefix: col('text', false),
    digits: col('int4', false),
    timezone: col('text', false),
    fingerprint: col('text', false),
    last_run_at: col('timestamptz', true),
    last_batch_count: col('int4', true),
    created_by: col('uuid', true),
    created_at: col('timestamptz', false),
    updated_at: col('timestamptz', false),
  },
} as const satisfies SchemaOf<Database>;

// Every table and column of `Database` appears in `columns` (checked by `satisfies`), and no more (checked here).
type Exact<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type SameKeys<A, B> =
  Exact<keyof A, keyof B> extends true
    ? { [K in keyof A & keyof B]: Exact<keyof A[K], keyof B[K]> }[keyof A & keyof B]
    : false;
export const columnsMatchDatabase: SameKeys<typeof columns, Database> = true;
