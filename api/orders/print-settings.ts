import { ErrorAnswer, ok } from '@api/answers';
import { seller } from '@api/auth/session';
import { PrintSettingsAnswer, PrintSettingsBody } from '@api/contracts/printing';
import { router } from '@api/route';
import {
  changeLogo,
  changePrintSettings,
  printLogo,
  printSettingsOf,
} from '@commands/printing/print-settings';
import { LOGO_MAX_BYTES, LOGO_TYPES } from '@domain/printing/settings';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  fileAnswers,
  type OrderDocumentsDeps,
  PRINT_SETTINGS_KEY,
  PRINT_SETTINGS_READERS,
  sendFile,
  printTags as tags,
} from './print-common';

/**
 * The account's print settings (spec §9) and its logo: seen by any seller user, changed with
 * orders-customize-delivery-order. The logo is uploaded as the PNG or JPEG itself (the body).
 */

const URL = '/api/orders/print-settings';

export const printSettingsRoutes: FastifyPluginAsyncZod<Pick<OrderDocumentsDeps, 'db'>> = async (
  app,
  { db },
) => {
  app.addContentTypeParser(
    [...LOGO_TYPES, 'application/octet-stream'],
    { parseAs: 'buffer', bodyLimit: LOGO_MAX_BYTES * 2 },
    (_request, body, done) => done(null, body),
  );
  const route = router(app, { tags, access: { permission: PRINT_SETTINGS_KEY } });

  route.get(
    URL,
    {
      summary:
        'The print settings: company details, and per document the logo position, address display and font size',
      access: { anyOf: PRINT_SETTINGS_READERS },
      answer: PrintSettingsAnswer,
    },
    async (request) => ok(request, await printSettingsOf(db, seller(request).tenantId)),
  );

  route.put(
    URL,
    {
      summary: 'Change the print settings (the logo is kept)',
      body: PrintSettingsBody,
      answer: PrintSettingsAnswer,
    },
    async (request) =>
      ok(request, await changePrintSettings(db, seller(request), request.body), 'printing.settings.saved'),
  );

  route.put(
    `${URL}/logo`,
    {
      summary: 'Upload the logo: the PNG or JPEG itself as the body (at most 512 KB)',
      bodyLimit: LOGO_MAX_BYTES * 2,
      answer: PrintSettingsAnswer,
      errors: { 413: ErrorAnswer, 415: ErrorAnswer },
    },
    async (request) => {
      const logo = (request.body as Buffer | undefined) ?? Buffer.alloc(0);
      return ok(request, await changeLogo(db, seller(request), logo), 'printing.settings.logo_saved');
    },
  );

  route.delete(`${URL}/logo`, { summary: 'Remove the logo', answer: PrintSettingsAnswer }, async (request) =>
    ok(request, await changeLogo(db, seller(request), null), 'printing.settings.logo_removed'),
  );

  route.get(
    `${URL}/logo`,
    {
      summary: 'The logo image',
      access: { anyOf: PRINT_SETTINGS_READERS },
      raw: fileAnswers('The logo (image/png or image/jpeg)', ['image/png', 'image/jpeg']),
    },
    async (request, reply) => {
      const logo = await printLogo(db, seller(request).tenantId);
      return sendFile(reply, logo.type, logo.data);
    },
  );
};
