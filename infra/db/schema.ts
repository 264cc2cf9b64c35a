import type { ColumnType, SelectType } from 'kysely';

/**
 * Every table the migrations create, written once: `columns` below names each column's Postgres type and
 * nullability at run time and carries its kysely type at compile time. `Database` and every `…Table` type are
 * derived from it, and `tests/infra/db-schema.int.spec.ts` migrates a fresh database and compares it with
 * `columns`, so the types cannot drift from the migrations.
 */

// ---- the kysely types of a column ----

/** bigint columns: pg hands them over as strings; we write bigint or string. */
export type Int8 = ColumnType<string, bigint | string | number, bigint | string | number>;
export type Timestamp = ColumnType<Date, Date | string, Date | string>;
/** numeric: pg hands it over as a string, to keep every cent. */
type NumericValue = ColumnType<string, string | number, string | number>;
export type JsonValue = string | number | boolean | JsonValue[] | { [key: string]: JsonValue | null };
export type Json = ColumnType<JsonValue, string, string>;

/** A column with a default: it may be left out of an insert. */
type Defaulted<T> = [T] extends [ColumnType<infer S, infer I, infer U>]
  ? ColumnType<S, I | undefined, U>
  : ColumnType<T, T | undefined, T>;
export type WithDefault<T> = Defaulted<T>;
export type GeneratedInt8 = Defaulted<Int8>;
export type GeneratedTimestamp = Defaulted<Timestamp>;
export type Numeric = Defaulted<NumericValue>;
export type JsonDefault = Defaulted<Json>;
/** A column Postgres computes (GENERATED ALWAYS … STORED): read, never written. */
export type Computed<T> = ColumnType<T, never, never>;

// ---- a column: its Postgres type and nullability (what the drift test compares), its kysely type ----

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

class Column<T, N extends boolean = false> {
  /** The column's kysely type: compile time only (no value at run time, so the drift test sees type and nullable). */
  declare readonly kysely: T;
  constructor(
    readonly type: PgType,
    readonly nullable: N,
  ) {}
  /** NULL allowed. */
  orNull(): Column<T | null, true> {
    return new Column<T | null, true>(this.type, true);
  }
  /** The migration gives it a default. */
  withDefault(): Column<Defaulted<T>, N> {
    return new Column<Defaulted<T>, N>(this.type, this.nullable);
  }
  /** Postgres computes it. */
  computed(): Column<Computed<SelectType<T>>, N> {
    return new Column<Computed<SelectType<T>>, N>(this.type, this.nullable);
  }
}

const column = <T>(type: PgType) => new Column<T>(type, false);
const text = <T extends string = string>() => column<T>('text');
const uuid = () => column<string>('uuid');
const xid8 = () => column<string>('xid8');
const int8 = () => column<Int8>('int8');
const int4 = <T extends number = number>() => column<T>('int4');
const bool = () => column<boolean>('bool');
const numeric = () => column<NumericValue>('numeric');
const textArray = () => column<string[]>('_text');
const jsonb = () => column<Json>('jsonb');
const bytea = () => column<Buffer>('bytea');
const timestamptz = () => column<Timestamp>('timestamptz');

// ---- values some columns are limited to ----

export type UserKind =
  | 'owner'
  | 'subuser'
  | 'admin'
  | 'subadmin'
  | 'supplier'
  | 'dropshipper'
  | 'dealer'
  | 'salesperson'
  | 'affiliate'
  | 'cargo_logistics';
export type UserStatus = 'pending' | 'active' | 'inactive';
export type InventoryCurrency = 'MYR' | 'SGD' | 'HKD' | 'TWD' | 'PHP';
export type UploadStatus = 'pending' | 'in_progress' | 'complete' | 'failed';
export type UploadKind = 'stock_adjustment' | 'purchase' | 'order' | 'listing';
export type SupplierStatus = 'active' | 'inactive';

// ---- the tables ----

/** A stock push rule's columns (stock_push_rules, stock_push_sku_rules). */
const pushRuleColumns = () => ({
  percent: numeric(),
  fixed: int4(),
  buffer: int4(),
  minimum: int4(),
  maximum: int4().orNull(),
  updated_by: uuid().orNull(),
  updated_at: timestamptz().withDefault(),
});

/** A day of sales: its account, seller's local day, store, marketplace, warehouse and currency (sales_daily and sku_sales_daily). */
const salesDayColumns = () => ({
  tenant_id: text(),
  day: text(),
  store_id: text(),
  platform: text(),
  warehouse_id: text(),
  currency: text(),
});

export const columns = {
  es_events: {
    global_position: int8().withDefault(),
    transaction_id: xid8().withDefault(),
    stream_id: text(),
    stream_revision: int8(),
    event_id: uuid(),
    type: text(),
    data: jsonb(),
    metadata: jsonb(),
    created_at: timestamptz().withDefault(),
  },
  projection_checkpoints: {
    name: text(),
    position_commit: int8().orNull(),
    position_prepare: int8().orNull(),
    status: text<'live' | 'rebuilding'>().withDefault(),
    rebuild_id: text().orNull(),
    events_applied: int8().withDefault(),
    updated_at: timestamptz().withDefault(),
  },
  stream_catalogue: {
    tenant_id: text(),
    stream_id: text(),
    category: text(),
    event_count: int8(),
    last_revision: int8(),
    last_event_type: text(),
    first_event_at: timestamptz(),
    last_event_at: timestamptz(),
  },
  /** The stock of a master code in a warehouse (projections/stock.ts). */
  stock_levels: {
    tenant_id: text(),
    master_code_id: text(),
    warehouse_id: text(),
    on_hand: int8(),
    reserved: int8(),
    in_process: int8(),
    on_hold: int8(),
    pos_on_hold: int8(),
    supplier_on_hold: int8(),
    incoming: int8(),
    /** What the channels may sell: on hand − reserved − in process − the three holds. */
    available: int8().computed(),
    negative: bool().computed(),
    last_movement_at: timestamptz(),
    movements: int8(),
    last_revision: int8(),
    last_position: int8(),
  },
  /** The stock movement ledger, one row per stock event (projections/stock.ts). */
  stock_movements: {
    tenant_id: text(),
    master_code_id: text(),
    warehouse_id: text(),
    revision: int8(),
    event_id: uuid(),
    occurred_at: timestamptz(),
    action: text(),
    mode: text().orNull(),
    quantity: int8(),
    previous_stock: int8(),
    change: int8(),
    stock_in: int8(),
    stock_out: int8(),
    new_stock: int8(),
    reserved: int8(),
    in_process: int8(),
    on_hold: int8(),
    pos_on_hold: int8(),
    supplier_on_hold: int8(),
    incoming: int8(),
    counterpart_warehouse_id: text().orNull(),
    reason: text().orNull(),
    source_type: text().orNull(),
    source_id: text().orNull(),
    created_by: text().orNull(),
    global_position: int8(),
  },
  // ---- accounts and the console shell (plain tables) ----
  packages: {
    id: text(),
    name: text(),
    limits: jsonb(),
    flags: jsonb().withDefault(),
    created_at: timestamptz().withDefault(),
  },
  tenants: {
    id: text(),
    name: text(),
    country: text(),
    package_id: text(),
    status: text<'pending' | 'active' | 'suspended'>().withDefault(),
    promo_code: text().orNull(),
    business: jsonb().withDefault(),
    ewallet_balance: numeric().withDefault(),
    created_at: timestamptz().withDefault(),
  },
  user_groups: {
    id: uuid(),
    tenant_id: text(),
    name: text(),
    permissions: textArray().withDefault(),
    created_at: timestamptz().withDefault(),
    updated_at: timestamptz().withDefault(),
  },
  users: {
    id: uuid(),
    tenant_id: text().orNull(),
    kind: text<UserKind>(),
    username: text().orNull(),
    email: text(),
    first_name: text(),
    last_name: text().withDefault(),
    phone: text().withDefault(),
    country: text().orNull(),
    password_hash: text(),
    pos_pin_hash: text().orNull(),
    status: text<UserStatus>(),
    group_id: uuid().orNull(),
    language: text().withDefault(),
    email_verified_at: timestamptz().orNull(),
    last_sign_in_at: timestamptz().orNull(),
    created_at: timestamptz().withDefault(),
    updated_at: timestamptz().withDefault(),
  },
  access_tokens: {
    token_hash: text(),
    user_id: uuid(),
    created_at: timestamptz().withDefault(),
    expires_at: timestamptz(),
    revoked_at: timestamptz().orNull(),
    address: text().orNull(),
  },
  sign_in_failures: {
    id: int8().withDefault(),
    scope: text<'signup'>(),
    key: text(),
    at: timestamptz().withDefault(),
  },
  sign_in_throttle: {
    subject: text(),
    address: text(),
    failures: int4(),
    last_failure_at: timestamptz(),
    blocked_until: timestamptz(),
  },
  sign_in_addresses: {
    user_id: uuid(),
    address: text(),
    last_sign_in_at: timestamptz().orNull(),
    unlocked_until: timestamptz().orNull(),
  },
  sign_in_unlocks: {
    token_hash: text(),
    user_id: uuid(),
    created_at: timestamptz(),
    expires_at: timestamptz(),
    used_at: timestamptz().orNull(),
  },
  email_verifications: {
    user_id: uuid(),
    code_hash: text(),
    expires_at: timestamptz(),
    attempts: int4().withDefault(),
    sends: int4().withDefault(),
    first_sent_at: timestamptz().withDefault(),
    last_sent_at: timestamptz().withDefault(),
  },
  reset_links: {
    token_hash: text(),
    user_id: uuid(),
    purpose: text<'password' | 'pos_pin'>(),
    expires_at: timestamptz(),
    used_at: timestamptz().orNull(),
    created_at: timestamptz().withDefault(),
  },
  mail_outbox: {
    id: int8().withDefault(),
    recipient: text(),
    subject: text(),
    body: text(),
    purpose: text(),
    created_at: timestamptz().withDefault(),
    sent_at: timestamptz().orNull(),
    error: text().orNull(),
  },
  table_settings: {
    user_id: uuid(),
    settings: jsonb(),
    updated_at: timestamptz().withDefault(),
  },
  announcements: {
    id: uuid(),
    subject: text(),
    content: text(),
    start_at: timestamptz(),
    end_at: timestamptz(),
    priority: int4(),
    is_active: bool(),
    requires_ack: bool(),
    country: text().orNull(),
    prompt: bool(),
    /** An announcement to one account (the monthly order limit's); null: the provider's, to every seller. */
    tenant_id: text().orNull(),
    created_by: uuid().orNull(),
    created_at: timestamptz().withDefault(),
    updated_at: timestamptz().withDefault(),
  },
  announcement_acks: {
    announcement_id: uuid(),
    user_id: uuid(),
    status: int4<100 | 110 | 120>(),
    dont_show_again: bool().withDefault(),
    updated_at: timestamptz().withDefault(),
  },
  categories: {
    id: uuid(),
    tenant_id: text(),
    platform: text(),
    name: text(),
    parent_id: uuid().orNull(),
    created_at: timestamptz().withDefault(),
    updated_at: timestamptz().withDefault(),
  },
  activity_log: {
    id: int8().withDefault(),
    tenant_id: text().orNull(),
    user_id: uuid().orNull(),
    action: text(),
    subject_type: text(),
    subject_id: text(),
    detail: jsonb().withDefault(),
    at: timestamptz().withDefault(),
  },
  /** Sign-ins of the account's users (`/login_access/list`). */
  sign_in_log: {
    id: int8().withDefault(),
    tenant_id: text().orNull(),
    user_id: uuid(),
    login: text(),
    address: text(),
    user_agent: text().withDefault(),
    result: text<'success' | 'failure' | 'locked'>(),
    at: timestamptz().withDefault(),
  },
  // ---- inventory reference data (plain tables; stock itself is events and projections) ----
  inventory_categories: {
    id: uuid(),
    tenant_id: text(),
    name: text(),
    parent_id: uuid().orNull(),
    created_at: timestamptz().withDefault(),
    updated_at: timestamptz().withDefault(),
  },
  brands: {
    id: uuid(),
    tenant_id: text(),
    name: text(),
    created_at: timestamptz().withDefault(),
    updated_at: timestamptz().withDefault(),
  },
  units: {
    id: uuid(),
    tenant_id: text(),
    name: text(),
    created_at: timestamptz().withDefault(),
    updated_at: timestamptz().withDefault(),
  },
  master_codes: {
    id: uuid(),
    tenant_id: text(),
    code: text(),
    name: text(),
    type: text<'standard' | 'combo'>(),
    category_id: uuid().orNull(),
    image_url: text().orNull(),
    unit_price: numeric().withDefault(),
    cost: numeric().withDefault(),
    weight_kg: numeric().withDefault(),
    seller_sku: text().withDefault(),
    upc: text().withDefault(),
    brand_id: uuid().orNull(),
    einvoice_classification: text().orNull(),
    remark: text().withDefault(),
    status: text<'active' | 'inactive'>().withDefault(),
    soft_threshold: int4().withDefault(),
    initial_quantity: int4().withDefault(),
    pos_app_name: text().withDefault(),
    unit_id: uuid().orNull(),
    created_at: timestamptz().withDefault(),
    updated_at: timestamptz().withDefault(),
    /** The image uploaded to the app (uploaded_images), beside `image_url` for one elsewhere. */
    image_id: uuid().orNull(),
  },
  master_code_prices: {
    tenant_id: text(),
    master_code_id: uuid(),
    currency: text<InventoryCurrency>(),
    unit_price: numeric().withDefault(),
  },
  /** A master code's wholesale tiers: from `min_quantity` pieces on, `unit_price` each. */
  master_code_wholesale_prices: {
    tenant_id: text(),
    master_code_id: uuid(),
    min_quantity: int4(),
    unit_price: numeric(),
  },
  combo_items: {
    tenant_id: text(),
    combo_id: uuid(),
    component_id: uuid(),
    quantity: int4(),
    position: int4(),
  },
  warehouses: {
    id: uuid(),
    tenant_id: text(),
    kind: text<'warehouse' | 'branch'>(),
    code: text(),
    name: text(),
    manager: text().withDefault(),
    phone: text().withDefault(),
    address: text().withDefault(),
    location: text().withDefault(),
    is_default: bool().withDefault(),
    use_address_on_receipt: bool().withDefault(),
    use_phone_on_receipt: bool().withDefault(),
    created_at: timestamptz().withDefault(),
    updated_at: timestamptz().withDefault(),
  },
  removed_places: {
    id: uuid(),
    tenant_id: text(),
    kind: text<'warehouse' | 'branch'>(),
    code: text(),
    name: text(),
    removed_at: timestamptz().withDefault(),
  },
  racks: {
    id: uuid(),
    tenant_id: text(),
    warehouse_id: uuid(),
    name: text(),
    status: text<'occupied' | 'available'>().withDefault(),
    note: text().withDefault(),
    created_at: timestamptz().withDefault(),
    updated_at: timestamptz().withDefault(),
  },
  master_code_locations: {
    tenant_id: text(),
    master_code_id: uuid(),
    warehouse_id: uuid(),
    rack_id: uuid().orNull(),
    note: text().withDefault(),
    created_at: timestamptz().withDefault(),
    updated_at: timestamptz().withDefault(),
  },
  // ---- the stock API's plain tables (api/inventory/stock*.ts) ----
  inventory_settings: {
    tenant_id: text(),
    refuse_negative_manual: bool().withDefault(),
    updated_by: uuid().orNull(),
    updated_at: timestamptz().withDefault(),
  },
  // Every bulk upload, stock adjustments and purchases (migration 20261128000800_upload_history).
  sheet_uploads: {
    id: uuid(),
    tenant_id: text(),
    user_id: uuid(),
    filename: text(),
    file_hash: text(),
    status: text<UploadStatus>(),
    total: int4(),
    applied: int4().withDefault(),
    replayed: int4().withDefault(),
    failed: int4().withDefault(),
    errors: jsonb().withDefault(),
    created_at: timestamptz().withDefault(),
    updated_at: timestamptz().withDefault(),
    finished_at: timestamptz().orNull(),
    kind: text<UploadKind>(),
    content: bytea().orNull(),
    started_at: timestamptz().orNull(),
  },
  // ---- purchasing (issue 5; migration 20261122000500_purchases) ----
  suppliers: {
    id: uuid(),
    tenant_id: text(),
    code: text().withDefault(),
    name: text(),
    company: text(),
    contact_number: text(),
    email: text().withDefault(),
    address: text(),
    city: text(),
    postal_code: text(),
    state: text(),
    country: text(),
    currency: text().withDefault(),
    vat_number: text().withDefault(),
    status: text<SupplierStatus>().withDefault(),
    created_by: uuid().orNull(),
    created_at: timestamptz().withDefault(),
    updated_at: timestamptz().withDefault(),
  },
  purchase_settings: {
    tenant_id: text(),
    purchase_approval: bool().withDefault(),
    goods_receipt_approval: bool().withDefault(),
    updated_by: uuid().orNull(),
    updated_at: timestamptz().withDefault(),
  },
  purchase_numbers: {
    tenant_id: text(),
    kind: text<'purchase' | 'goods_receipt'>(),
    document_id: text(),
    number: int4(),
  },
  /** A purchase order's list row (projections/purchases.ts). */
  purchases: {
    tenant_id: text(),
    id: text(),
    po_number: text(),
    reference: text(),
    purchase_date: text(),
    supplier_id: text(),
    warehouse_id: text(),
    status: text(),
    item_count: int4(),
    quantity: int8(),
    received: int8(),
    subtotal: numeric().withDefault(),
    discount: numeric().withDefault(),
    total: numeric().withDefault(),
    estimated_arrival: text().orNull(),
    open_receipts: int4(),
    created_by: text(),
    created_at: timestamptz(),
    updated_at: timestamptz(),
  },
  /** A goods receive note's list row (projections/purchases.ts). */
  goods_receipts: {
    tenant_id: text(),
    id: text(),
    grn_number: text(),
    purchase_id: text(),
    po_number: text(),
    supplier_id: text(),
    warehouse_id: text(),
    status: int4(),
    reference: text(),
    line_count: int4(),
    received: int8(),
    damaged: int8(),
    returned: int8(),
    approval_required: bool(),
    created_by: text(),
    approved_by: text().orNull(),
    created_at: timestamptz(),
    updated_at: timestamptz(),
  },
  /** The moving average cost of a master code (projections/average-cost.ts). */
  average_costs: {
    tenant_id: text(),
    master_code_id: text(),
    on_hand: int8(),
    average_cost: numeric().withDefault(),
    receipts: int4(),
    last_receipt_at: timestamptz().orNull(),
    updated_at: timestamptz(),
  },
  /** A receipt's unit cost, waiting for the stock event that brings its units in (projections/average-cost.ts). */
  average_cost_receipts: {
    tenant_id: text(),
    goods_receipt_id: text(),
    master_code_id: text(),
    quantity: int8(),
    unit_cost: numeric().withDefault(),
  },
  /** The moving average cost and units held after each movement that changed them (projections/average-cost.ts). */
  average_cost_history: {
    tenant_id: text(),
    master_code_id: text(),
    global_position: int8(),
    event_id: uuid(),
    occurred_at: timestamptz(),
    average_cost: numeric(),
    on_hand: int8(),
  },
  /** A shipment (quantity > 0) or return (< 0) of stock at the moving average of its moment (projections/average-cost.ts). */
  cost_of_sales: {
    tenant_id: text(),
    event_id: uuid(),
    master_code_id: text(),
    warehouse_id: text(),
    movement: text<'StockShipped' | 'StockReturned'>(),
    source_type: text().orNull(),
    source_id: text().orNull(),
    quantity: int8(),
    unit_cost: numeric(),
    occurred_at: timestamptz(),
    global_position: int8(),
  },
  /** A transfer request's list row (projections/transfers.ts). */
  transfer_requests: {
    tenant_id: text(),
    id: uuid(),
    reference: text(),
    from_warehouse_id: uuid(),
    to_warehouse_id: uuid(),
    status: text<'pending' | 'approved' | 'rejected' | 'cancelled'>(),
    remark: text(),
    reject_reason: text().orNull(),
    line_count: int4(),
    total_quantity: int8(),
    transfer_id: uuid().orNull(),
    created_by: uuid().orNull(),
    created_at: timestamptz(),
    approved_by: uuid().orNull(),
    approved_at: timestamptz().orNull(),
    rejected_by: uuid().orNull(),
    rejected_at: timestamptz().orNull(),
    cancelled_by: uuid().orNull(),
    cancelled_at: timestamptz().orNull(),
    updated_at: timestamptz(),
  },
  /** A transfer's list row (projections/transfers.ts). */
  transfers: {
    tenant_id: text(),
    id: uuid(),
    reference: text(),
    request_id: uuid().orNull(),
    from_warehouse_id: uuid(),
    to_warehouse_id: uuid(),
    status: text<'pending' | 'in_transit' | 'completed' | 'cancelled'>(),
    confirmed: bool(),
    remark: text(),
    cancel_reason: text().orNull(),
    line_count: int4(),
    total_quantity: int8(),
    shipped_quantity: int8(),
    received_quantity: int8(),
    returned_quantity: int8(),
    created_by: uuid().orNull(),
    created_at: timestamptz(),
    confirmed_by: uuid().orNull(),
    confirmed_at: timestamptz().orNull(),
    shipped_by: uuid().orNull(),
    shipped_at: timestamptz().orNull(),
    received_by: uuid().orNull(),
    received_at: timestamptz().orNull(),
    cancelled_by: uuid().orNull(),
    cancelled_at: timestamptz().orNull(),
    completed_at: timestamptz().orNull(),
    updated_at: timestamptz(),
  },
  // ---- goods issue notes (domain/goods-issue, projections/goods-issue.ts) ----
  /** The account's approval layers for goods issue notes; absent means 1 layer, a day's reminder, one user a layer. */
  approval_settings: {
    tenant_id: text(),
    layers: int4().withDefault(),
    reminder_seconds: int4().withDefault(),
    allow_same_approver: bool().withDefault(),
    updated_by: uuid().orNull(),
    updated_at: timestamptz().withDefault(),
  },
  /** The goods issue notes' list, one row per note, with the folded note in `state`. */
  goods_issues: {
    tenant_id: text(),
    id: text(),
    reference: text(),
    reason: text(),
    remark: text(),
    warehouse_id: text(),
    status: int4(),
    layers: int4().orNull(),
    current_layer: int4().orNull(),
    line_count: int4(),
    total_quantity: int8(),
    issue_failed: bool(),
    created_by: text(),
    created_at: timestamptz(),
    updated_at: timestamptz(),
    last_revision: int8(),
    state: jsonb(),
  },
  /** A marketplace store of a seller (integrations/stores): its shop, status and order import. */
  stores: {
    id: uuid(),
    tenant_id: text(),
    platform: text(),
    name: text(),
    shop_id: int8(),
    region: text(),
    status: text<'connected' | 'error' | 'disconnected'>(),
    /** Null: the account's default warehouse. */
    warehouse_id: uuid().orNull(),
    import_interval_minutes: int4().withDefault(),
    /** Every order updated before this instant has been imported. */
    import_checkpoint: timestamptz().orNull(),
    last_import_at: timestamptz().orNull(),
    last_import_orders: int4().orNull(),
    last_error: text().orNull(),
    last_error_kind: text().orNull(),
    last_error_at: timestamptz().orNull(),
    connected_by: uuid().orNull(),
    connected_at: timestamptz(),
    disconnected_at: timestamptz().orNull(),
    created_at: timestamptz().withDefault(),
    updated_at: timestamptz().withDefault(),
  },
  /** A store's marketplace tokens: never in an API answer. */
  store_tokens: {
    store_id: uuid(),
    tenant_id: text(),
    access_token: text(),
    refresh_token: text(),
    expires_at: timestamptz(),
    updated_at: timestamptz().withDefault(),
  },
  // ---- printing, returns and carrier manifests (issue 6; migration 20261122001000) ----
  /** An account's print settings (company details; logo position, address display, font size per document). */
  print_settings: {
    tenant_id: text(),
    settings: jsonb(),
    logo: bytea().orNull(),
    logo_type: text<'image/png' | 'image/jpeg'>().orNull(),
    updated_by: uuid().orNull(),
    updated_at: timestamptz().withDefault(),
  },
  /** What printing, returns and manifests look up of each order (projections/print-log.ts). */
  order_shipments: {
    tenant_id: text(),
    order_id: text(),
    order_number: text(),
    store_id: text(),
    platform: text(),
    warehouse_id: text(),
    tracking_number: text().orNull(),
    shipping_provider: text().orNull(),
    status: text(),
    shipped_at: timestamptz().orNull(),
    updated_at: timestamptz(),
  },
  /** One row per print of an order's document (OrderPrinted). */
  print_log: {
    tenant_id: text(),
    id: uuid(),
    order_id: text(),
    order_number: text().orNull(),
    tracking_number: text().orNull(),
    document: text<'AWB' | 'INV' | 'PL' | 'CL' | 'DO'>(),
    origin: text(),
    printed_by: text().orNull(),
    printed_at: timestamptz(),
  },
  /** Each order document an auto print station took, once (commands/printing/auto-print.ts). */
  auto_print_claims: {
    tenant_id: text(),
    order_id: text(),
    document: text<'AWB' | 'INV' | 'PL' | 'CL' | 'DO'>(),
    station: text(),
    claimed_by: text(),
    claimed_at: timestamptz().withDefault(),
  },
  /** The returns' list (projections/returns.ts), with the folded return in `state`. */
  order_returns: {
    tenant_id: text(),
    id: text(),
    order_id: text(),
    order_number: text(),
    tracking_number: text().orNull(),
    store_id: text(),
    platform: text(),
    warehouse_id: text(),
    action: text(),
    reason: text(),
    refund_to_buyer: numeric().withDefault(),
    include_shipping: bool(),
    refund_reason: text(),
    reversal_item_price: numeric().withDefault(),
    currency: text(),
    line_count: int4(),
    total_quantity: int4(),
    restocked_quantity: int4(),
    image_count: int4(),
    completed: bool(),
    created_by: text().orNull(),
    created_at: timestamptz(),
    updated_at: timestamptz(),
    last_revision: int8(),
    state: jsonb(),
  },
  /**
   * An image the app stores (commands/support/images.ts): a return's attachment (uploaded first, attached when the
   * return is created) or a master code's picture.
   */
  uploaded_images: {
    id: uuid(),
    tenant_id: text(),
    return_id: text().orNull(),
    purpose: text<'return' | 'master_code' | 'listing'>(),
    content_type: text<'image/png' | 'image/jpeg' | 'image/webp' | 'image/gif'>(),
    byte_size: int4(),
    data: bytea(),
    uploaded_by: uuid().orNull(),
    created_at: timestamptz().withDefault(),
  },
  /** A month's carrier manifest: the orders shipped that month, per carrier. */
  carrier_manifests: {
    id: uuid(),
    tenant_id: text(),
    month: text(),
    total_shipped: int4(),
    carriers: jsonb(),
    created_by: uuid().orNull(),
    created_at: timestamptz().withDefault(),
    updated_at: timestamptz().withDefault(),
  },
  // ---- batches, auto batch and scan to verify (domain/batches, domain/scan, projections/batches.ts) ----
  /** A batch's list row (projections/batches.ts). */
  batches: {
    tenant_id: text(),
    id: uuid(),
    number: int4(),
    label: text(),
    name: text(),
    type: text<'normal' | 'pre-order'>(),
    status: text<'open' | 'closed'>(),
    picker_id: uuid().orNull(),
    /** The day the batch is for, `yyyy-mm-dd`. */
    date: text(),
    max_orders: int4(),
    split: text<'none' | 'logistics' | 'payment'>(),
    group_value: text().orNull(),
    source: text<'manual' | 'auto'>(),
    config_id: uuid().orNull(),
    order_ids: textArray(),
    total_orders: int4(),
    created_by: uuid().orNull(),
    created_at: timestamptz(),
    closed_at: timestamptz().orNull(),
    updated_at: timestamptz(),
  },
  /** An order's scan check (projections/batches.ts): who checks it, how far. */
  scan_checks: {
    tenant_id: text(),
    order_id: text(),
    round: int4(),
    status: text<'open' | 'completed' | 'idle'>(),
    picker_id: text(),
    batch_id: text().orNull(),
    tracking_number: text(),
    scanned_units: int4(),
    required_units: int4(),
    opened_at: timestamptz(),
    completed_at: timestamptz().orNull(),
    /** The check folded by its own evolve (domain/scan/check.ts). */
    state: jsonb(),
    updated_at: timestamptz(),
  },
  /** Which batch holds an order: the write-side guard against two batches taking one order (commands/batches). */
  /** Every SKU a connected store sells, with its link to a master code (migration 20261128001300, issue 15). */
  channel_skus: {
    tenant_id: text(),
    store_id: text(),
    item_id: text(),
    model_id: text().withDefault(),
    seller_sku: text(),
    item_name: text(),
    model_name: text().withDefault(),
    price: numeric().withDefault(),
    channel_stock: int4().withDefault(),
    status: text().withDefault(),
    master_code_id: uuid().orNull(),
    listing_id: text().orNull(),
    updated_at: timestamptz().withDefault(),
  },
  /** Discount and gift-with-purchase promotions (projections/promotions.ts), the folded promotion in `state`. */
  promotions: {
    tenant_id: text(),
    id: text(),
    kind: text<'discount' | 'gift'>(),
    store_id: text(),
    name: text(),
    start_at: timestamptz(),
    end_at: timestamptz(),
    stopped_at: timestamptz().orNull(),
    channel_state: text<'pending' | 'pushed' | 'failed' | 'not_on_channel'>(),
    channel_id: text().orNull(),
    channel_error: text().orNull(),
    item_count: int4(),
    created_by: text(),
    created_at: timestamptz(),
    updated_at: timestamptz(),
    last_revision: int8(),
    state: jsonb(),
  },
  /** Each store's price rule (domain/promotions/pricing.ts), from its latest PriceRuleSaved. */
  price_rules: {
    tenant_id: text(),
    store_id: text(),
    markup_percent: numeric(),
    fixed_amount: numeric(),
    rounding: text<'none' | 'whole' | 'ninety' | 'ninety_nine'>(),
    overrides: jsonb(),
    updated_by: text(),
    updated_at: timestamptz(),
  },
  /** Each store's item download and what it found (spec §3 "Download status"; migration 20261128001600). */
  channel_downloads: {
    tenant_id: text(),
    store_id: text(),
    status: text<'pending' | 'downloading' | 'completed' | 'error'>(),
    items: int4().withDefault(),
    skus: int4().withDefault(),
    linked: int4().withDefault(),
    unlinked: int4().withDefault(),
    last_error: text().orNull(),
    requested_by: text().orNull(),
    requested_at: timestamptz().withDefault(),
    started_at: timestamptz().orNull(),
    finished_at: timestamptz().orNull(),
    updated_at: timestamptz().withDefault(),
  },
  /** A store's stock push rule (domain/channels/stock-push.ts; migration 20261128001700). No row: show all. */
  stock_push_rules: {
    tenant_id: text(),
    store_id: uuid(),
    ...pushRuleColumns(),
  },
  /** A master code's own push rule in a store, replacing the store's. */
  stock_push_sku_rules: {
    tenant_id: text(),
    store_id: uuid(),
    master_code_id: uuid(),
    ...pushRuleColumns(),
  },
  /** Which warehouses feed a store's pushed stock (none: the store's warehouse, else the default one). */
  stock_push_warehouses: {
    tenant_id: text(),
    store_id: uuid(),
    warehouse_id: uuid(),
  },
  /** The account's main store lock. */
  stock_push_settings: {
    tenant_id: text(),
    main_store_id: uuid().orNull(),
    lock_below: int4().withDefault(),
    updated_by: uuid().orNull(),
    updated_at: timestamptz().withDefault(),
  },
  /** The push log's read model: one row per SKU per push call (projections/push-log.ts). */
  channel_push_log: {
    tenant_id: text(),
    id: text(),
    store_id: text(),
    platform: text(),
    field: text<'stock' | 'price'>(),
    item_id: text(),
    model_id: text(),
    seller_sku: text(),
    master_code_id: text().orNull(),
    quantity: int4().orNull(),
    price: numeric().orNull(),
    origin: text<'change' | 'manual' | 'reconcile' | 'pricing'>(),
    trigger_event_id: text().orNull(),
    trigger_type: text().orNull(),
    reason: text(),
    attempt: int4(),
    outcome: text<'ok' | 'failed' | 'retrying'>(),
    answer: text(),
    pushed_at: timestamptz(),
  },
  /** A listing's list row (projections/listings.ts; migration 20261128001500, issue 15). */
  listings: {
    tenant_id: text(),
    id: text(),
    platform: text(),
    product_name: text(),
    brand: text().withDefault(),
    category_id: text().withDefault(),
    condition: text().withDefault(),
    parent_sku: text().withDefault(),
    image: text().orNull(),
    store_ids: textArray().withDefault(),
    sku_count: int4().withDefault(),
    total_stock: int4().withDefault(),
    min_price: numeric().withDefault(),
    max_price: numeric().withDefault(),
    status: text<'draft' | 'published' | 'deleted'>(),
    listed: bool().withDefault(),
    running: bool().withDefault(),
    failed: bool().withDefault(),
    state: jsonb(),
    revision: int4(),
    created_by: uuid().orNull(),
    created_at: timestamptz(),
    updated_at: timestamptz(),
  },
  /** An account's bulk scan control (domain/scan/settings.ts; migration 20261128001200). No row: all off. */
  scan_settings: {
    tenant_id: text(),
    quantity_entry: bool().withDefault(),
    order_number_scan: bool().withDefault(),
    bulk_single_items: bool().withDefault(),
    updated_by: uuid().orNull(),
    updated_at: timestamptz().withDefault(),
  },
  batch_claims: {
    tenant_id: text(),
    order_id: text(),
    batch_id: text(),
    /** The batch was recorded; an unconfirmed claim left by a crash expires. */
    confirmed: bool(),
    claimed_at: timestamptz(),
  },
  /** Each account's batch number sequence. */
  batch_numbers: {
    tenant_id: text(),
    last_number: int8(),
  },
  /** An auto batch configuration (spec §3 "Auto batch"). */
  auto_batch_configs: {
    id: uuid(),
    tenant_id: text(),
    name: text(),
    active: bool(),
    interval_hours: int4(),
    start_time: text(),
    end_time: text(),
    max_orders: int4(),
    split: text<'none' | 'logistics' | 'payment'>(),
    type: text<'normal' | 'pre-order'>(),
    store_ids: textArray(),
    platforms: textArray(),
    prefix: text(),
    digits: int4(),
    timezone: text(),
    fingerprint: text(),
    last_run_at: timestamptz().orNull(),
    last_batch_count: int4().orNull(),
    created_by: uuid().orNull(),
    created_at: timestamptz().withDefault(),
    updated_at: timestamptz().withDefault(),
  },
  // ---- the order board (projections/orders.ts) ----
  /** An order's board row: what the order lists show, filter and sort on; the folded order in `state`. */
  orders: {
    tenant_id: text(),
    id: text(),
    order_number: text(),
    store_id: text(),
    platform: text(),
    status: text(),
    marketplace_status: text(),
    payment_method: text(),
    cod: bool(),
    currency: text(),
    total_amount: numeric().withDefault(),
    ordered_at: timestamptz(),
    paid_at: timestamptz().orNull(),
    tracking_number: text().orNull(),
    shipping_provider: text().orNull(),
    buyer_username: text().orNull(),
    buyer_name: text(),
    warehouse_id: text(),
    batch_id: text().orNull(),
    item_count: int4(),
    line_count: int4(),
    item_not_found: bool(),
    out_of_stock: bool(),
    pre_order: bool(),
    printed: textArray(),
    preview: bool(),
    stock_stage: text(),
    split_from: text().orNull(),
    /** Held over the monthly order limit (commands/orders/monthly-limit.ts). */
    on_hold: bool().withDefault(),
    scanned_at: timestamptz().orNull(),
    scanned_by: text().orNull(),
    shipped_at: timestamptz().orNull(),
    cancelled_at: timestamptz().orNull(),
    cancel_reason: text().orNull(),
    imported_at: timestamptz(),
    updated_at: timestamptz(),
    state: jsonb(),
    replacement_of: text().orNull(),
    picker_id: text().orNull(),
    process_failure: jsonb().orNull(),
  },
  /** An order's line as the board and pick lists read it. */
  order_lines: {
    tenant_id: text(),
    order_id: text(),
    line_id: text(),
    position: int4(),
    sku: text(),
    seller_sku: text(),
    name: text(),
    variation: text().orNull(),
    quantity: int4(),
    unit_price: numeric().withDefault(),
    master_code_id: text().orNull(),
    combo: bool(),
    removed: bool(),
    short: bool(),
    gift: bool().withDefault(),
    bin_number: text().orNull(),
    serial_numbers: textArray().withDefault(),
  },
  /** The monthly order limit's ledger: each order that asked in, in arrival order, admitted in a month or held. */
  order_admissions: {
    tenant_id: text(),
    order_id: text(),
    seq: int8().withDefault(),
    state: text<'admitted' | 'held' | 'releasing' | 'closed'>(),
    month: text(),
    created_at: timestamptz().withDefault(),
    updated_at: timestamptz().withDefault(),
  },
  /** A store's SKU mapped to a master code by the seller: the import maps later orders' lines with it. */
  order_sku_mappings: {
    tenant_id: text(),
    store_id: text(),
    sku: text(),
    master_code_id: uuid(),
    updated_by: text().orNull(),
    updated_at: timestamptz().withDefault(),
  },
  /** How many orders a store has in each status: the board's tab counts. */
  order_counts: {
    tenant_id: text(),
    store_id: text(),
    status: text(),
    platform: text(),
    orders: int8(),
  },
  // ---- reports (projections/reports/facts.ts) ----
  /** An order's figures and the moments of its life, as the order and fulfilment reports read them. */
  report_orders: {
    tenant_id: text(),
    order_id: text(),
    order_number: text(),
    store_id: text(),
    platform: text(),
    warehouse_id: text(),
    status: text(),
    currency: text(),
    payment_method: text(),
    cod: bool(),
    replacement: bool(),
    total_amount: numeric(),
    shipping_fee: numeric().orNull(),
    shipping_provider: text().orNull(),
    item_count: int4(),
    ordered_at: timestamptz(),
    paid_at: timestamptz().orNull(),
    scanned_at: timestamptz().orNull(),
    scanned_by: text().orNull(),
    batch_id: text().orNull(),
    shipped_at: timestamptz().orNull(),
    cancelled_at: timestamptz().orNull(),
    returned_at: timestamptz().orNull(),
    refunded_at: timestamptz().orNull(),
  },
  /** An order's line as sold, and how many of its units came back. */
  report_order_lines: {
    tenant_id: text(),
    order_id: text(),
    line_id: text(),
    sku: text(),
    seller_sku: text(),
    name: text(),
    master_code_id: text().orNull(),
    quantity: int4(),
    unit_price: numeric(),
    gift: bool(),
    removed: bool(),
    returned_quantity: int4(),
  },
  /** A return: what came back, what the buyer was refunded and what went back on the shelf. */
  report_returns: {
    tenant_id: text(),
    return_id: text(),
    order_id: text(),
    order_number: text(),
    store_id: text(),
    warehouse_id: text(),
    currency: text(),
    action: text(),
    refund_to_buyer: numeric(),
    reversal_item_price: numeric(),
    returned_quantity: int4(),
    returned_value: numeric(),
    restocked_quantity: int4(),
    recorded_at: timestamptz(),
    completed_at: timestamptz().orNull(),
  },
  /** Sales per seller's local day, store, marketplace, warehouse and currency (projections/reports/sales-daily.ts). */
  sales_daily: {
    ...salesDayColumns(),
    orders: int4(),
    paid_orders: int4(),
    unpaid_orders: int4(),
    cancelled_orders: int4(),
    units: int4(),
    revenue: numeric(),
    shipping: numeric(),
    cancelled_amount: numeric(),
    returned_units: int4(),
    returned_amount: numeric(),
  },
  /** The same days per master code ('' when unmapped) and seller SKU. */
  sku_sales_daily: {
    ...salesDayColumns(),
    master_code_id: text(),
    seller_sku: text(),
    name: text(),
    orders: int4(),
    units: int4(),
    revenue: numeric(),
  },
  /** Each order as the daily sales last counted it. */
  sales_daily_orders: {
    tenant_id: text(),
    order_id: text(),
    day: text(),
    cancelled: bool(),
    returned: jsonb(),
    state: jsonb(),
  },
  /** The integrator feed's apps (commands/apps): the API key's hash, the event types it may read, who made it. */
  feed_apps: {
    tenant_id: text(),
    id: uuid(),
    name: text(),
    event_types: textArray(),
    created_by: uuid(),
    key_hash: text(),
    key_hint: text(),
    created_at: timestamptz().withDefault(),
    key_created_at: timestamptz().withDefault(),
    revoked_at: timestamptz().orNull(),
    last_used_at: timestamptz().orNull(),
  },
  /** An account's webhook subscriptions (migration 20261128003100, issue 16). */
  webhook_subscriptions: {
    tenant_id: text(),
    id: uuid(),
    url: text(),
    description: text().withDefault(),
    event_types: textArray(),
    status: text<'enabled' | 'disabled'>(),
    disabled_reason: text<'seller' | 'gone' | 'failing'>().orNull(),
    secret: text(),
    previous_secret: text().orNull(),
    previous_secret_until: timestamptz().orNull(),
    delivered_through: text().orNull(),
    starts_after: text().orNull(),
    failing_since: timestamptz().orNull(),
    warned_at: timestamptz().orNull(),
    created_by: uuid().orNull(),
    created_at: timestamptz().withDefault(),
    updated_at: timestamptz().withDefault(),
  },
  /** The webhook delivery log: one row per attempt (commands/webhooks/deliver.ts). */
  webhook_deliveries: {
    tenant_id: text(),
    id: uuid(),
    subscription_id: uuid(),
    event_id: uuid(),
    event_type: text(),
    position: text(),
    attempt: int4(),
    redelivery: bool().withDefault(),
    request_headers: jsonb(),
    body_sha256: text(),
    body_excerpt: text(),
    outcome: text<'delivered' | 'failed' | 'gone'>(),
    status: int4().orNull(),
    answer_excerpt: text().withDefault(),
    error: text().orNull(),
    duration_ms: int4(),
    attempted_at: timestamptz(),
  },
};

// ---- the kysely types, derived ----

type Columns = typeof columns;
type RowOf<Table> = { [Name in keyof Table]: Table[Name] extends Column<infer T, boolean> ? T : never };
export type Database = { [Table in keyof Columns]: RowOf<Columns[Table]> };

export type EsEventsTable = Database['es_events'];
export type ProjectionCheckpointsTable = Database['projection_checkpoints'];
export type StreamCatalogueTable = Database['stream_catalogue'];
export type StockLevelsTable = Database['stock_levels'];
export type StockMovementsTable = Database['stock_movements'];
export type PackagesTable = Database['packages'];
export type TenantsTable = Database['tenants'];
export type UserGroupsTable = Database['user_groups'];
export type UsersTable = Database['users'];
export type AccessTokensTable = Database['access_tokens'];
export type SignInFailuresTable = Database['sign_in_failures'];
export type SignInThrottleTable = Database['sign_in_throttle'];
export type SignInAddressesTable = Database['sign_in_addresses'];
export type SignInUnlocksTable = Database['sign_in_unlocks'];
export type EmailVerificationsTable = Database['email_verifications'];
export type ResetLinksTable = Database['reset_links'];
export type MailOutboxTable = Database['mail_outbox'];
export type TableSettingsTable = Database['table_settings'];
export type AnnouncementsTable = Database['announcements'];
export type AnnouncementAcksTable = Database['announcement_acks'];
export type CategoriesTable = Database['categories'];
export type ActivityLogTable = Database['activity_log'];
export type InventoryCategoriesTable = Database['inventory_categories'];
export type BrandsTable = Database['brands'];
export type UnitsTable = Database['units'];
export type MasterCodesTable = Database['master_codes'];
export type MasterCodePricesTable = Database['master_code_prices'];
export type MasterCodeWholesalePricesTable = Database['master_code_wholesale_prices'];
export type ComboItemsTable = Database['combo_items'];
export type WarehousesTable = Database['warehouses'];
export type RacksTable = Database['racks'];
export type MasterCodeLocationsTable = Database['master_code_locations'];
export type InventorySettingsTable = Database['inventory_settings'];
export type SheetUploadsTable = Database['sheet_uploads'];
export type TransferRequestsTable = Database['transfer_requests'];
export type TransfersTable = Database['transfers'];
export type SuppliersTable = Database['suppliers'];
export type PurchaseSettingsTable = Database['purchase_settings'];
export type PurchaseNumbersTable = Database['purchase_numbers'];
export type PurchasesTable = Database['purchases'];
export type GoodsReceiptsTable = Database['goods_receipts'];
export type AverageCostsTable = Database['average_costs'];
export type AverageCostReceiptsTable = Database['average_cost_receipts'];
export type AverageCostHistoryTable = Database['average_cost_history'];
export type CostOfSalesTable = Database['cost_of_sales'];
export type ApprovalSettingsTable = Database['approval_settings'];
export type GoodsIssuesTable = Database['goods_issues'];
export type OrdersTable = Database['orders'];
export type OrderLinesTable = Database['order_lines'];
export type OrderCountsTable = Database['order_counts'];
export type ReportOrdersTable = Database['report_orders'];
export type ReportOrderLinesTable = Database['report_order_lines'];
export type ReportReturnsTable = Database['report_returns'];
export type StoresTable = Database['stores'];
export type StoreTokensTable = Database['store_tokens'];
export type PrintSettingsTable = Database['print_settings'];
export type OrderShipmentsTable = Database['order_shipments'];
export type PrintLogTable = Database['print_log'];
export type AutoPrintClaimsTable = Database['auto_print_claims'];
export type OrderReturnsTable = Database['order_returns'];
export type UploadedImagesTable = Database['uploaded_images'];
export type CarrierManifestsTable = Database['carrier_manifests'];
export type BatchesTable = Database['batches'];
export type ScanChecksTable = Database['scan_checks'];
export type BatchClaimsTable = Database['batch_claims'];
export type ScanSettingsTable = Database['scan_settings'];
export type ChannelSkusTable = Database['channel_skus'];
export type PromotionsTable = Database['promotions'];
export type ChannelDownloadsTable = Database['channel_downloads'];
export type ChannelPushLogTable = Database['channel_push_log'];
export type ListingsTable = Database['listings'];
export type BatchNumbersTable = Database['batch_numbers'];
export type AutoBatchConfigsTable = Database['auto_batch_configs'];
export type SalesDailyTable = Database['sales_daily'];
export type SkuSalesDailyTable = Database['sku_sales_daily'];
export type WebhookSubscriptionsTable = Database['webhook_subscriptions'];
export type WebhookDeliveriesTable = Database['webhook_deliveries'];
