import { ErrorAnswer, Ok, ok, refusals } from '@api/answers';
import { seller } from '@api/auth/session';
import { PrintSettingsAnswer, PrintSettingsBody } from '@api/contracts/printing';
import {
  changeLogo,
  changePrintSettings,
  printLogo,
  printSettingsOf,
} from '@commands/printing/print-settings';
import { LOGO_MAX_BYTES, LOGO_TYPES } from '@domain/printing/settings';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { type OrderDocumentsDeps, PRINT_SETTINGS_KEY, printTags as tags } from './print-common';

/**
 * The account's print settings (spec §9; commands/printing/settings.ts):
 *
 * GET    /api/orders/print-settings        → { company, documents: { INV|PL|CL|DO: { logo_position, address_display,
 *                                             font_size } }, logo: { type, bytes } | null, saved, updated_at,
 *                                             options } (any seller user)
 * PUT    /api/orders/print-settings        { company: { name, address, phone, email, registration_no },
 *                                             documents: { … every drawn document … } } (orders-customize-delivery-order)
 * PUT    /api/orders/print-settings/logo   the PNG or JPEG itself as the body, at most 512 KB (same key)
 * DELETE /api/orders/print-settings/logo   (same key)
 * GET    /api/orders/print-settings/logo   the logo image (404 when none)
 */

export const printSettingsRoutes: FastifyPluginAsyncZod<Pick<OrderDocumentsDeps, 'db'>> = async (
  app,
  { db },
) => {
  app.addContentTypeParser(
    [...LOGO_TYPES, 'application/octet-stream'],
    { parseAs: 'buffer', bodyLimit: LOGO_MAX_BYTES * 2 },
    (_request, body, done) => done(null, body),
  );
  const managing = { access: { permission: PRINT_SETTINGS_KEY } } as const;

  app.get(
    '/api/orders/print-settings',
    {
      config: { access: 'seller' },
      schema: {
        tags,
        summary:
          'The print settings: company details, and per document the logo position, address display and font size',
        response: { 200: Ok(PrintSettingsAnswer), ...refusals },
      },
    },
    async (request) => ok(request, await printSettingsOf(db, seller(request).tenantId)),
  );

  app.put(
    '/api/orders/print-settings',
    {
      config: managing,
      schema: {
        tags,
        summary: 'Change the print settings (the logo is kept)',
        body: PrintSettingsBody,
        response: { 200: Ok(PrintSettingsAnswer), ...refusals },
      },
    },
    async (request) =>
      ok(request, await changePrintSettings(db, seller(request), request.body), 'printing.settings.saved'),
  );

  app.put(
    '/api/orders/print-settings/logo',
    {
      config: managing,
      bodyLimit: LOGO_MAX_BYTES * 2,
      schema: {
        tags,
        summary: 'Upload the logo: the PNG or JPEG itself as the body (at most 512 KB)',
        response: { 200: Ok(PrintSettingsAnswer), ...refusals, 413: ErrorAnswer, 415: ErrorAnswer },
      },
    },
    async (request) =>
      ok(
        request,
        await changeLogo(db, seller(request), request.body ?? Buffer.alloc(0)),
        'printing.settings.logo_saved',
      ),
  );

  app.delete(
    '/api/orders/print-settings/logo',
    {
      config: managing,
      schema: { tags, summary: 'Remove the logo', response: { 200: Ok(PrintSettingsAnswer), ...refusals } },
    },
    async (request) =>
      ok(request, await changeLogo(db, seller(request), null), 'printing.settings.logo_removed'),
  );

  app.get(
    '/api/orders/print-settings/logo',
    {
      config: { access: 'seller' },
      schema: {
        tags,
        summary: 'The logo image',
        response: {
          200: {
            description: 'The logo (image/png or image/jpeg)',
            content: {
              'image/png': { schema: z.any().meta({ type: 'string', format: 'binary' }) },
              'image/jpeg': { schema: z.any().meta({ type: 'string', format: 'binary' }) },
            },
          },
          ...refusals,
        },
      },
    },
    async (request, reply) => {
      const logo = await printLogo(db, seller(request).tenantId);
      return reply
        .code(200)
        .header('content-type', logo.type)
        .header('cache-control', 'no-store')
        .send(logo.data);
    },
  );
};
