import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { RegisterRequest } from '@api/contracts/accounts';
import { AutoBatchConfigBody, CreateBatchesBody } from '@api/contracts/batches';
import { AddCategory } from '@api/contracts/categories';
import { GoodsIssueBody } from '@api/contracts/goods-issue';
import { BrandBody, NewCategory, UnitBody } from '@api/contracts/inventory-catalogue';
import { newMasterCodeShape } from '@api/contracts/inventory-master-codes';
import { NewRack } from '@api/contracts/inventory-racks';
import { NewBranch, NewWarehouse } from '@api/contracts/inventory-warehouses';
import { ActionBody, AddressBody, PackingBody } from '@api/contracts/orders';
import { CompanyBody } from '@api/contracts/printing';
import { NewPurchase, NewSupplier } from '@api/contracts/purchases';
import { ReturnBody } from '@api/contracts/returns';
import { StoreChangesBody } from '@api/contracts/stores';
import { GroupBody, userFields } from '@api/contracts/team';
import {
  CancelTransferBody,
  EditTransferBody,
  RejectRequestBody,
  TransferDocumentBody,
} from '@api/contracts/transfers';
import { TEXT_LIMITS, type TextKind } from '@domain/shared/limits';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

/**
 * One rule for how long a seller's text may be (domain/shared/limits.ts): every form's contract takes a text of its
 * kind's limit as it is, never cut, and refuses one character more with the limit in the refusal; the console's
 * fields say the same (a counter and a message), never cutting with a `maxLength`.
 */

/** The fields of one action of the order board's body (a union by `action`). */
function actionFields(action: string): Record<string, z.ZodType> {
  const option = ActionBody.options.find(
    ({ shape }) => shape.action instanceof z.ZodLiteral && shape.action.value === action,
  );
  if (!option) throw new Error(`no order action ${action}`);
  return option.shape;
}
const shipment = (actionFields('arrange_shipment').shipments as z.ZodArray<z.ZodObject>).element.shape;

const fields: [string, z.ZodType, TextKind][] = [
  ['a master code', newMasterCodeShape.code, 'code'],
  ["a master code's name", newMasterCodeShape.name, 'name'],
  ["a master code's seller SKU", newMasterCodeShape.seller_sku, 'code'],
  ["a master code's remark", newMasterCodeShape.remark, 'note'],
  ["a master code's POS name", newMasterCodeShape.pos_app_name, 'name'],
  ["a warehouse's code", NewWarehouse.shape.code, 'code'],
  ["a warehouse's name", NewWarehouse.shape.name, 'name'],
  ["a warehouse's manager", NewWarehouse.shape.manager, 'name'],
  ["a warehouse's phone", NewWarehouse.shape.phone, 'phone'],
  ["a warehouse's address", NewWarehouse.shape.address, 'address'],
  ["a branch's location", NewBranch.shape.location, 'address'],
  ["a rack's name", NewRack.shape.name, 'name'],
  ["a rack's note", NewRack.shape.note, 'note'],
  ["an inventory category's name", NewCategory.shape.name, 'name'],
  ["a brand's name", BrandBody.shape.name, 'name'],
  ["a unit's name", UnitBody.shape.name, 'name'],
  ["a storefront category's name", AddCategory.shape.name, 'name'],
  ["a supplier's code", NewSupplier.shape.code, 'code'],
  ["a supplier's name", NewSupplier.shape.name, 'name'],
  ["a supplier's company", NewSupplier.shape.company, 'name'],
  ["a supplier's address", NewSupplier.shape.address, 'address'],
  ["a purchase's reference", NewPurchase.shape.reference, 'reference'],
  ["a purchase's note", NewPurchase.shape.note, 'note'],
  ["a goods issue note's reference", GoodsIssueBody.shape.reference, 'reference'],
  ["a goods issue note's reason", GoodsIssueBody.shape.reason, 'reason'],
  ["a goods issue note's remark", GoodsIssueBody.shape.remark, 'note'],
  ["a user's first name", userFields.first_name, 'name'],
  ["a user's last name", userFields.last_name, 'name'],
  ["a user's phone", userFields.phone, 'phone'],
  ["a group's name", GroupBody.shape.name, 'name'],
  ["a store's name", StoreChangesBody.shape.name, 'name'],
  ["the company's name", CompanyBody.shape.name, 'name'],
  ["the company's address", CompanyBody.shape.address, 'address'],
  ["the company's phone", CompanyBody.shape.phone, 'phone'],
  ["the company's registration number", CompanyBody.shape.registration_no, 'reference'],
  ["a new seller's first name", RegisterRequest.shape.first_name, 'name'],
  ["a new seller's store name", RegisterRequest.shape.store_name, 'name'],
  ["an order's cancellation reason", actionFields('cancel').reason as z.ZodType, 'reason'],
  ["a shipment's tracking number", shipment.tracking_number as z.ZodType, 'reference'],
  ["a shipment's shipping provider", shipment.shipping_provider as z.ZodType, 'name'],
  ["a pickup's logistics provider", actionFields('request_pickup').provider as z.ZodType, 'name'],
  ["a pickup's address", actionFields('request_pickup').pickup_address as z.ZodType, 'address'],
  ["an order address's name", AddressBody.shape.name, 'name'],
  ["an order address's phone", AddressBody.shape.phone, 'phone'],
  ["an order address's full address", AddressBody.shape.full_address, 'address'],
  ["an order address's city", AddressBody.shape.city, 'name'],
  ["an order address's state", AddressBody.shape.state, 'name'],
  ["an order address's postal code", AddressBody.shape.postal_code, 'code'],
  ["an order address's district", AddressBody.shape.district, 'name'],
  ["an order address's barangay", AddressBody.shape.barangay, 'name'],
  ["an order line's bin number", PackingBody.shape.bin_number, 'code'],
  ["a return's refund reason", ReturnBody.shape.refund_reason, 'reason'],
  ["a return's reason", ReturnBody.shape.reason, 'reason'],
  ["a batch's name", CreateBatchesBody.shape.name, 'name'],
  ["an auto batch configuration's name", AutoBatchConfigBody.shape.name, 'name'],
  ["a transfer's reference", TransferDocumentBody.shape.reference, 'reference'],
  ["a transfer's remark", TransferDocumentBody.shape.remark, 'note'],
  ["an edited transfer's remark", EditTransferBody.shape.remark, 'note'],
  ["a transfer request's rejection reason", RejectRequestBody.shape.reason, 'reason'],
  ["a transfer's cancellation reason", CancelTransferBody.unwrap().shape.reason, 'reason'],
];

/** A text of `length` the field's pattern takes (a phone number is digits). */
const textOf = (kind: TextKind, length: number) => (kind === 'phone' ? '1' : 'K').repeat(length);

describe('the text limits of the forms', () => {
  it.each(fields)('%s takes its limit whole and refuses one character more', (_name, field, kind) => {
    const limit = TEXT_LIMITS[kind];
    const whole = field.safeParse(textOf(kind, limit));
    expect(whole.success).toBe(true);
    expect(whole.data).toBe(textOf(kind, limit));
    const over = field.safeParse(textOf(kind, limit + 1));
    expect(over.success).toBe(false);
    expect(over.error?.issues).toEqual([expect.objectContaining({ code: 'too_big', maximum: limit })]);
  });

  it("never lets the console's fields cut what is typed or pasted: they count and warn instead", () => {
    // Sign-in screens are out of this rule for now (their helper's area; PINs and one-time codes are fixed lengths).
    const root = path.resolve(import.meta.dirname, '..', '..', 'web', 'src');
    const skipped = ['routes/auth'].map((dir) => path.join(root, dir));
    const cutting: string[] = [];
    const walk = (dir: string) => {
      if (skipped.includes(dir)) return;
      for (const name of readdirSync(dir)) {
        const file = path.join(dir, name);
        if (statSync(file).isDirectory()) walk(file);
        else if (name.endsWith('.tsx') && /\bmaxLength=\{/.test(readFileSync(file, 'utf8')))
          cutting.push(path.relative(root, file));
      }
    };
    walk(root);
    expect(cutting).toEqual([]);
  });
});
