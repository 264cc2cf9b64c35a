import {
  ClassificationRow,
  Country,
  CurrencyRow,
  countries,
  currencies,
  EinvoiceCountryRow,
  einvoiceClassifications,
  einvoiceCountries,
  MsicRow,
  malaysianStates,
  PaymentModeRow,
  Platform,
  paymentModes,
  platforms,
  StateRow,
  searchMsic,
  TaxTypeRow,
  taxTypes,
  UnitRow,
  units,
} from '@domain/lookups';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ErrorAnswer, GridPage, Ok, ok, refusals } from './answers';
import { MsicQuery } from './contracts/lookups';

/**
 * GET /api/lookup/*: the reference tables of spec §3 (domain/lookups). Countries and platforms are public because
 * the registration form needs them before anyone is signed in; the rest need a session.
 */

const publicAnswers = { 400: ErrorAnswer } as const;

export const lookupRoutes: FastifyPluginAsyncZod = async (app) => {
  const list = <Row extends z.ZodType>(
    path: string,
    summary: string,
    row: Row,
    rows: () => readonly z.infer<Row>[],
    access: 'public' | 'signed-in' = 'signed-in',
  ) =>
    app.get(
      `/api/lookup/${path}`,
      {
        config: { access },
        schema: {
          tags: ['lookups'],
          summary,
          response: { 200: Ok(z.array(row)), ...(access === 'public' ? publicAnswers : refusals) },
        },
      },
      async (request) => ok(request, rows()),
    );

  list('states', 'Malaysian states (01–17)', StateRow, malaysianStates);
  list('classifications', 'E-invoice classifications (001–045)', ClassificationRow, einvoiceClassifications);
  list('taxes', 'E-invoice tax types', TaxTypeRow, taxTypes);
  list('payment-modes', 'E-invoice payment modes', PaymentModeRow, paymentModes);
  list('currencies', 'Currencies (ISO 4217)', CurrencyRow, currencies);
  list('units', 'Units of measure (UN/ECE Recommendation 20)', UnitRow, units);
  list('einvoice-countries', 'E-invoice countries (ISO 3166 alpha-3)', EinvoiceCountryRow, einvoiceCountries);
  list(
    'countries',
    'The countries of the product: supported ones, then BN and US',
    Country,
    countries,
    'public',
  );
  list('platforms', 'Marketplaces and storefront platforms with their logos', Platform, platforms, 'public');

  app.get(
    '/api/lookup/msic',
    {
      config: { access: 'signed-in' },
      schema: {
        tags: ['lookups'],
        summary: 'MSIC industry codes, searched by code or description, paged for ag-grid',
        querystring: MsicQuery,
        response: { 200: Ok(GridPage(MsicRow)), ...refusals },
      },
    },
    async (request) => ok(request, searchMsic(request.query)),
  );
};
