import { ErrorAnswer, GridPage, Ok, ok } from '@api/answers';
import { MsicQuery } from '@api/contracts/lookups';
import { router } from '@api/route';
import * as lookups from '@domain/lookups';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';

/**
 * GET /api/lookup/*: the reference tables of spec §3 (domain/lookups). Countries and platforms are public because
 * the registration form needs them before anyone is signed in; the rest need a session.
 */

export const lookupRoutes: FastifyPluginAsyncZod = async (app) => {
  const route = router(app, { tags: ['lookups'], access: 'signed-in' });
  const list = <Row extends z.ZodType>(
    path: string,
    summary: string,
    row: Row,
    rows: () => readonly z.input<Row>[],
    access: 'public' | 'signed-in' = 'signed-in',
  ) => {
    const answer = z.array(row);
    const raw = access === 'public' ? { raw: { 200: Ok(answer), 400: ErrorAnswer } } : {};
    route.get(`/api/lookup/${path}`, { summary, access, answer, ...raw }, async (request) =>
      ok(request, [...rows()]),
    );
  };

  list('states', 'Malaysian states (01–17)', lookups.StateRow, lookups.malaysianStates);
  list(
    'classifications',
    'E-invoice classifications (001–045)',
    lookups.ClassificationRow,
    lookups.einvoiceClassifications,
  );
  list('taxes', 'E-invoice tax types', lookups.TaxTypeRow, lookups.taxTypes);
  list('payment-modes', 'E-invoice payment modes', lookups.PaymentModeRow, lookups.paymentModes);
  list('currencies', 'Currencies (ISO 4217)', lookups.CurrencyRow, lookups.currencies);
  list('units', 'Units of measure (UN/ECE Recommendation 20)', lookups.UnitRow, lookups.units);
  list(
    'einvoice-countries',
    'E-invoice countries (ISO 3166 alpha-3)',
    lookups.EinvoiceCountryRow,
    lookups.einvoiceCountries,
  );
  list(
    'countries',
    'The countries of the product: supported ones, then BN and US',
    lookups.Country,
    lookups.countries,
    'public',
  );
  list(
    'platforms',
    'Marketplaces and storefront platforms with their logos',
    lookups.Platform,
    lookups.platforms,
    'public',
  );

  route.get(
    '/api/lookup/msic',
    {
      summary: 'MSIC industry codes, searched by code or description, paged for ag-grid',
      query: MsicQuery,
      answer: GridPage(lookups.MsicRow),
    },
    async (request) => ok(request, lookups.searchMsic(request.query)),
  );
};
