/** Barcode labels (spec §3 "Barcode printing"): a PDF of labels for chosen master codes. Who: inventory-master-code. */
import { ErrorAnswer } from '@api/answers';
import { seller } from '@api/auth/session';
import { PrintLabels } from '@api/contracts/inventory-barcode';
import { attachmentName, fileAnswers, sendFile } from '@api/files';
import { router } from '@api/route';
import { printLabels } from '@commands/printing/print-labels';
import { translate } from '@infra/i18n';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { type InventoryDeps, tags } from './common';

export const barcodeRoutes: FastifyPluginAsyncZod<InventoryDeps> = async (app, { db }) => {
  const route = router(app, { tags, access: { permission: 'inventory-master-code' } });
  route.post(
    '/api/inventory/barcode/print',
    {
      summary: 'Barcode labels (Code 128 or QR) for master codes as a PDF, on sheets or a continuous roll',
      body: PrintLabels,
      raw: fileAnswers(
        'The labels; `content-disposition: attachment; filename="labels-YYYY-MM-DD.pdf"`',
        ['application/pdf'],
        { 413: ErrorAnswer },
      ),
    },
    async (request, reply) => {
      const pdf = await printLabels({ db }, seller(request), request.body, (key) =>
        translate(request.language, key),
      );
      const date = new Date().toISOString().slice(0, 10);
      return sendFile(reply, 'application/pdf', pdf, attachmentName(`labels-${date}.pdf`));
    },
  );
};
