import { ok } from '@api/answers';
import { seller } from '@api/auth/session';
import { AutoPrintClaim, AutoPrintClaimBody } from '@api/contracts/auto-print';
import { router } from '@api/route';
import { claimAutoPrint } from '@commands/printing/auto-print';
import type { Db } from '@infra/db';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { PRINT_KEYS, printTags as tags } from './print-common';

/**
 * POST /api/orders/auto-print/claim: the worker auto print station's next orders to print (commands/printing/
 * auto-print.ts), each order's document given to one station once. Whoever may print order documents may run one.
 */
export const autoPrintRoutes: FastifyPluginAsyncZod<{ db: Db }> = async (app, { db }) => {
  router(app, { tags, access: { anyOf: PRINT_KEYS } }).post(
    '/api/orders/auto-print/claim',
    {
      summary:
        'Auto print station: claim the orders that reached a state since the station started and are not printed for a document; each order’s document is given to one station once',
      body: AutoPrintClaimBody,
      answer: AutoPrintClaim,
    },
    async (request) => {
      const { tenantId, userId } = seller(request);
      return ok(request, await claimAutoPrint(db, { tenantId, userId }, request.body));
    },
  );
};
