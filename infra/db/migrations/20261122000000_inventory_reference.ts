import { type Kysely, sql } from 'kysely';

// The inventory's reference data (ARCHITECTURE.md: plain tables, with an activity-log row per change): categories,
// brands and units; master codes with their price list and combo items; warehouses and branches (one table, told
// apart by `kind`, so stock streams name one kind of place); racks; and a master code's rack location per warehouse.
// Stock quantities are not here: they are events and projections of the stock side.
//
// Each child row carries its tenant and refers to its parent by (tenant_id, id), so the database itself refuses a
// row that points at another tenant's category, component, warehouse or rack.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE inventory_categories (
      id uuid PRIMARY KEY,
      tenant_id text NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
      name text NOT NULL,
      parent_id uuid,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      UNIQUE (tenant_id, id),
      FOREIGN KEY (tenant_id, parent_id) REFERENCES inventory_categories (tenant_id, id)
    )`.execute(db);
  await sql`CREATE UNIQUE INDEX inventory_categories_name_idx ON inventory_categories (tenant_id, lower(name))`.execute(
    db,
  );
  await sql`CREATE INDEX inventory_categories_parent_idx ON inventory_categories (tenant_id, parent_id)`.execute(
    db,
  );
  for (const table of ['brands', 'units']) {
    await sql`
      CREATE TABLE ${sql.table(table)} (
        id uuid PRIMARY KEY,
        tenant_id text NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
        name text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        UNIQUE (tenant_id, id)
      )`.execute(db);
    await sql`CREATE UNIQUE INDEX ${sql.id(`${table}_name_idx`)} ON ${sql.table(table)} (tenant_id, lower(name))`.execute(
      db,
    );
  }
  await sql`
    CREATE TABLE master_codes (
      id uuid PRIMARY KEY,
      tenant_id text NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
      code text NOT NULL,
      name text NOT NULL,
      type text NOT NULL CHECK (type IN ('standard', 'combo')),
      category_id uuid,
      image_url text,
      unit_price numeric(14, 2) NOT NULL DEFAULT 0 CHECK (unit_price >= 0),
      cost numeric(14, 2) NOT NULL DEFAULT 0 CHECK (cost >= 0),
      weight_kg numeric(10, 3) NOT NULL DEFAULT 0 CHECK (weight_kg >= 0),
      seller_sku text NOT NULL DEFAULT '',
      upc text NOT NULL DEFAULT '',
      brand_id uuid,
      einvoice_classification text CHECK (einvoice_classification ~ '^[0-9]{3}$'),
      remark text NOT NULL DEFAULT '',
      status text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'inactive')),
      soft_threshold integer NOT NULL DEFAULT 0 CHECK (soft_threshold >= 0),
      initial_quantity integer NOT NULL DEFAULT 0 CHECK (initial_quantity >= 0),
      pos_app_name text NOT NULL DEFAULT '',
      unit_id uuid,
      bound boolean NOT NULL DEFAULT false,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      UNIQUE (tenant_id, id),
      -- A combo has no stock of its own, so nothing to receive at the start.
      CHECK (type = 'standard' OR initial_quantity = 0),
      FOREIGN KEY (tenant_id, category_id) REFERENCES inventory_categories (tenant_id, id),
      FOREIGN KEY (tenant_id, brand_id) REFERENCES brands (tenant_id, id),
      FOREIGN KEY (tenant_id, unit_id) REFERENCES units (tenant_id, id)
    )`.execute(db);
  await sql`CREATE UNIQUE INDEX master_codes_code_idx ON master_codes (tenant_id, lower(code))`.execute(db);
  await sql`CREATE INDEX master_codes_updated_idx ON master_codes (tenant_id, updated_at, id)`.execute(db);
  await sql`CREATE INDEX master_codes_name_idx ON master_codes (tenant_id, lower(name))`.execute(db);
  await sql`CREATE INDEX master_codes_category_idx ON master_codes (category_id) WHERE category_id IS NOT NULL`.execute(
    db,
  );
  await sql`CREATE INDEX master_codes_brand_idx ON master_codes (brand_id) WHERE brand_id IS NOT NULL`.execute(
    db,
  );
  await sql`CREATE INDEX master_codes_unit_idx ON master_codes (unit_id) WHERE unit_id IS NOT NULL`.execute(
    db,
  );
  await sql`
    CREATE TABLE master_code_prices (
      tenant_id text NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
      master_code_id uuid NOT NULL,
      currency text NOT NULL CHECK (currency IN ('MYR', 'SGD', 'HKD', 'TWD', 'PHP')),
      unit_price numeric(14, 2) NOT NULL CHECK (unit_price > 0),
      PRIMARY KEY (master_code_id, currency),
      FOREIGN KEY (tenant_id, master_code_id) REFERENCES master_codes (tenant_id, id) ON DELETE CASCADE
    )`.execute(db);
  await sql`
    CREATE TABLE combo_items (
      tenant_id text NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
      combo_id uuid NOT NULL,
      component_id uuid NOT NULL,
      quantity integer NOT NULL CHECK (quantity > 0),
      position integer NOT NULL,
      PRIMARY KEY (combo_id, component_id),
      CHECK (combo_id <> component_id),
      FOREIGN KEY (tenant_id, combo_id) REFERENCES master_codes (tenant_id, id) ON DELETE CASCADE,
      FOREIGN KEY (tenant_id, component_id) REFERENCES master_codes (tenant_id, id)
    )`.execute(db);
  await sql`CREATE INDEX combo_items_component_idx ON combo_items (component_id)`.execute(db);
  await sql`
    CREATE TABLE warehouses (
      id uuid PRIMARY KEY,
      tenant_id text NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
      kind text NOT NULL CHECK (kind IN ('warehouse', 'branch')),
      code text NOT NULL,
      name text NOT NULL,
      manager text NOT NULL DEFAULT '',
      phone text NOT NULL DEFAULT '',
      address text NOT NULL DEFAULT '',
      location text NOT NULL DEFAULT '',
      is_default boolean NOT NULL DEFAULT false,
      use_address_on_receipt boolean NOT NULL DEFAULT false,
      use_phone_on_receipt boolean NOT NULL DEFAULT false,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      UNIQUE (tenant_id, id),
      CHECK (kind = 'warehouse' OR NOT is_default)
    )`.execute(db);
  await sql`CREATE UNIQUE INDEX warehouses_code_idx ON warehouses (tenant_id, lower(code))`.execute(db);
  // At most one default per tenant; the API keeps it at exactly one while any warehouse exists.
  await sql`CREATE UNIQUE INDEX warehouses_default_idx ON warehouses (tenant_id) WHERE is_default`.execute(
    db,
  );
  await sql`
    CREATE TABLE racks (
      id uuid PRIMARY KEY,
      tenant_id text NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
      warehouse_id uuid NOT NULL,
      name text NOT NULL,
      status text NOT NULL DEFAULT 'available' CHECK (status IN ('occupied', 'available')),
      note text NOT NULL DEFAULT '',
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      UNIQUE (id, warehouse_id),
      FOREIGN KEY (tenant_id, warehouse_id) REFERENCES warehouses (tenant_id, id) ON DELETE CASCADE
    )`.execute(db);
  await sql`CREATE UNIQUE INDEX racks_name_idx ON racks (warehouse_id, lower(name))`.execute(db);
  await sql`CREATE INDEX racks_tenant_idx ON racks (tenant_id, warehouse_id)`.execute(db);
  await sql`
    CREATE TABLE master_code_locations (
      tenant_id text NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
      master_code_id uuid NOT NULL,
      warehouse_id uuid NOT NULL,
      rack_id uuid,
      note text NOT NULL DEFAULT '',
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (master_code_id, warehouse_id),
      FOREIGN KEY (tenant_id, master_code_id) REFERENCES master_codes (tenant_id, id) ON DELETE CASCADE,
      FOREIGN KEY (tenant_id, warehouse_id) REFERENCES warehouses (tenant_id, id) ON DELETE CASCADE,
      -- The rack must stand in the same warehouse.
      FOREIGN KEY (rack_id, warehouse_id) REFERENCES racks (id, warehouse_id)
    )`.execute(db);
  await sql`CREATE INDEX master_code_locations_warehouse_idx ON master_code_locations (tenant_id, warehouse_id)`.execute(
    db,
  );
  await sql`CREATE INDEX master_code_locations_rack_idx ON master_code_locations (rack_id) WHERE rack_id IS NOT NULL`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of [
    'master_code_locations',
    'racks',
    'warehouses',
    'combo_items',
    'master_code_prices',
    'master_codes',
    'units',
    'brands',
    'inventory_categories',
  ]) {
    await sql`DROP TABLE ${sql.table(table)}`.execute(db);
  }
}
