import { Ok, ok, refusals } from '@api/answers';
import { seller } from '@api/auth/session';
import { PickerMasterCode, PickerPlace, PickerSearchQuery } from '@api/contracts/transfers';
import { pickerMasterCodes, pickerPlaces } from '@projections/transfers.queries';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAny, TRANSFER_READERS, type TransferRouteDeps, tags } from './common';

/**
 * What the transfer forms pick from, for users who hold a transfer key but none of the inventory screens': the
 * account's warehouses and branches, and its standard master codes.
 */
export const transferPickerRoutes: FastifyPluginAsyncZod<TransferRouteDeps> = async (app, { db }) => {
  app.get(
    '/api/transfer-stock/places',
    {
      config: { access: 'seller' },
      preHandler: requireAny(TRANSFER_READERS),
      schema: {
        tags,
        summary: 'The warehouses (default first) and branches a transfer may go from or to',
        response: { 200: Ok(z.array(PickerPlace)), ...refusals },
      },
    },
    async (request) => ok(request, await pickerPlaces(db, seller(request).tenantId)),
  );

  app.get(
    '/api/transfer-stock/master-codes',
    {
      config: { access: 'seller' },
      preHandler: requireAny(TRANSFER_READERS),
      schema: {
        tags,
        summary: 'Standard master codes whose code, name or seller SKU contains the search, by code',
        querystring: PickerSearchQuery,
        response: { 200: Ok(z.array(PickerMasterCode)), ...refusals },
      },
    },
    async (request) => ok(request, await pickerMasterCodes(db, seller(request).tenantId, request.query)),
  );
};
