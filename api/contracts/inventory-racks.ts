import { InventoryCode, MASTER_CODE_STATUSES } from '@domain/inventory/codes';
import { TEXT_LIMITS } from '@domain/shared/limits';
import { z } from 'zod';
import { gridQuery, setFilter, TextFilter } from './grid';
import { nonEmpty, nothingToChange, referenceId, requiredText, stamps, text } from './inventory-fields';
import { MasterCodeLocation, PlaceRef } from './inventory-master-codes';
import { rule } from './rules';

/** Racks inside a warehouse or branch, and a master code's rack location per place (spec §3). */

export const RACK_STATUSES = ['occupied', 'available'] as const;

const statusInvalid = rule(InventoryCode.statusInvalid, 'inventory.rack.status_invalid');
const rackStatus = z.enum(RACK_STATUSES, { error: statusInvalid });
const rackFields = {
  name: requiredText(TEXT_LIMITS.name, InventoryCode.nameRequired, 'inventory.rack.name_required'),
  status: rackStatus,
  note: text(TEXT_LIMITS.note),
};

export const NewRack = z.strictObject({
  warehouse_id: referenceId,
  name: rackFields.name,
  status: rackStatus.default('available'),
  note: rackFields.note.default(''),
});
export const RackChanges = z.strictObject(rackFields).partial().refine(nonEmpty, nothingToChange);

export const LocationBody = z.strictObject({
  warehouse_id: referenceId,
  /** null: in the place, on no particular rack. */
  rack_id: referenceId.nullable().default(null),
  note: text(TEXT_LIMITS.note).default(''),
});

export const LocationParams = z.strictObject({ id: z.string().max(64), warehouseId: z.string().max(64) });

export const Rack = z.object({
  id: z.string(),
  warehouse: PlaceRef,
  name: z.string(),
  status: z.enum(RACK_STATUSES),
  note: z.string(),
  master_code_count: z.number().int(),
  ...stamps,
});
export type Rack = z.infer<typeof Rack>;

export const RackLocationRow = z.object({
  master_code: z.object({
    id: z.string(),
    code: z.string(),
    name: z.string(),
    status: z.enum(MASTER_CODE_STATUSES),
  }),
  ...MasterCodeLocation.shape,
});

const WarehouseScope = { warehouse_id: z.string().max(64).optional() };

export const RackGridQuery = gridQuery(['name', 'status', 'warehouse', 'updated_at'] as const, {
  name: TextFilter,
  note: TextFilter,
  warehouse: TextFilter,
  status: setFilter(RACK_STATUSES),
}).extend(WarehouseScope);
export type RackGridQuery = z.infer<typeof RackGridQuery>;

export const RackLocationGridQuery = gridQuery(['code', 'name', 'warehouse', 'rack', 'updated_at'] as const, {
  code: TextFilter,
  name: TextFilter,
  warehouse: TextFilter,
  rack: TextFilter,
  note: TextFilter,
}).extend(WarehouseScope);
export type RackLocationGridQuery = z.infer<typeof RackLocationGridQuery>;

export type NewRack = z.infer<typeof NewRack>;
export type RackChanges = z.infer<typeof RackChanges>;
export type LocationBody = z.infer<typeof LocationBody>;
export type RackLocationRow = z.infer<typeof RackLocationRow>;
