import { Readable } from 'node:stream';
import { ok } from '@api/answers';
import { seller } from '@api/auth/session';
import {
  AsOfOrdersExportQuery,
  AsOfOrdersPage,
  AsOfOrdersQuery,
  AsOfStockExportQuery,
  AsOfStockPage,
  AsOfStockQuery,
  DocumentParams,
  DocumentReplay,
  SIGNED_FILE_MAX_BYTES,
  StockReplay,
  StockReplayExportQuery,
  StockReplayQuery,
  Verification,
  VerifyBody,
} from '@api/contracts/audit';
import { ApiError } from '@api/errors';
import { attachmentName, fileAnswers, sendFile } from '@api/files';
import { router } from '@api/route';
import { AuditCode } from '@domain/audit/codes';
import { DOCUMENT_KINDS, DOCUMENT_READERS } from '@domain/audit/documents';
import type { Db } from '@infra/db';
import type { EventStore } from '@infra/eventstore/port';
import { translate } from '@infra/i18n';
import { SHEET_TYPES } from '@infra/sheets/write';
import { openOrdersAsOf, stockAsOfPage } from '@projections/as-of.queries';
import { openOrdersAsOfFile, stockAsOfFile } from '@projections/as-of-export';
import {
  DOCUMENT_REPLAY_COLUMNS,
  documentReplay,
  documentReplayRows,
  STOCK_REPLAY_COLUMNS,
  stockReplay,
  stockReplayRows,
} from '@projections/audit.queries';
import { accountAuditKey, signedCsv, verifySignedCsv } from '@projections/audit-signed-csv';
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

/**
 * Reports as of a past instant (`pos-view-print-report`) and the auditor's replay: a stock's history
 * (`inventory-stock-movement`), a document's (the key that lets the user see the document), each exportable as a
 * signed CSV, and the check of such a file (projections/audit-signed-csv.ts says how it is signed).
 */

export interface AuditDeps {
  db: Db;
  store: Pick<EventStore, 'kind'>;
  /** The server's audit key (AUDIT_SIGNING_KEY): each account's is derived from it. */
  signingKey: Buffer;
}

const tags = ['audit'];
const REPORTS = { permission: 'pos-view-print-report' } as const;
const STOCK_REPLAY = { permission: 'inventory-stock-movement' } as const;
/** Whoever may replay something may check a file of it. */
const REPLAYERS = {
  anyOf: [...new Set([STOCK_REPLAY.permission, ...DOCUMENT_KINDS.flatMap((kind) => DOCUMENT_READERS[kind])])],
} as const;

const sheetAnswers = fileAnswers(
  'CSV (UTF-8 with a BOM) or XLSX, as an attachment',
  Object.values(SHEET_TYPES),
);
const signedAnswers = fileAnswers(
  'CSV (UTF-8 with a BOM) ending with the SHA-256 of its rows and Kedai’s HMAC-SHA256 of that hash',
  ['text/csv; charset=utf-8'],
);

const sendExport = (reply: FastifyReply, file: { type: string; body: Readable; filename: string }) =>
  sendFile(reply, file.type, file.body, attachmentName(file.filename));

const sendSigned = (reply: FastifyReply, filename: string, body: AsyncIterable<string>) =>
  sendFile(reply, 'text/csv; charset=utf-8', Readable.from(body), attachmentName(filename));

const stamp = () => new Date().toISOString().slice(0, 19).replace(/[-:]/g, '');

export const auditRoutes: FastifyPluginAsyncZod<AuditDeps> = async (app, deps) => {
  const { db, signingKey } = deps;
  // The replay reads streams; AppDeps types only what /api/health reads of the store.
  const store = deps.store as EventStore;
  const route = router(app, { tags, access: REPORTS });
  const keyOf = (tenantId: string) => accountAuditKey(signingKey, tenantId);

  // ---- as of a past instant ----

  route.get(
    '/api/audit/as-of/stock',
    {
      summary:
        'Stock balance and valuation as they stood at an instant: every master code × warehouse, with totals',
      query: AsOfStockQuery,
      answer: AsOfStockPage,
    },
    async (request) => ok(request, await stockAsOfPage(db, seller(request).tenantId, request.query)),
  );

  route.get(
    '/api/audit/as-of/stock/export',
    {
      summary: 'Stock balance and valuation at an instant as a CSV or XLSX file (streamed)',
      query: AsOfStockExportQuery,
      raw: sheetAnswers,
    },
    async (request, reply) =>
      sendExport(
        reply,
        await stockAsOfFile(db, seller(request).tenantId, request.query, request.language, (error) =>
          request.log.error({ err: error }, 'stock as-of export failed'),
        ),
      ),
  );

  route.get(
    '/api/audit/as-of/orders',
    {
      summary:
        'The orders open (imported, neither shipped nor cancelled) at an instant, with their status then',
      query: AsOfOrdersQuery,
      answer: AsOfOrdersPage,
    },
    async (request) =>
      ok(request, await openOrdersAsOf({ db, store }, seller(request).tenantId, request.query)),
  );

  route.get(
    '/api/audit/as-of/orders/export',
    {
      summary: 'The orders open at an instant as a CSV or XLSX file (streamed)',
      query: AsOfOrdersExportQuery,
      raw: sheetAnswers,
    },
    async (request, reply) =>
      sendExport(
        reply,
        await openOrdersAsOfFile(
          { db, store },
          seller(request).tenantId,
          request.query,
          request.language,
          (error) => request.log.error({ err: error }, 'open orders as-of export failed'),
        ),
      ),
  );

  // ---- the auditor's replay ----

  route.get(
    '/api/audit/stock',
    {
      summary:
        "A stock's history, oldest first: who, when, why, the document behind it, every figure before and after",
      access: STOCK_REPLAY,
      query: StockReplayQuery,
      answer: StockReplay,
    },
    async (request) =>
      ok(
        request,
        await stockReplay({ db, store }, seller(request).tenantId, request.query, request.language),
      ),
  );

  route.get(
    '/api/audit/stock/export',
    {
      summary: "A stock's whole history as a signed CSV (SHA-256 of the rows, HMAC-SHA256 of that hash)",
      access: STOCK_REPLAY,
      query: StockReplayExportQuery,
      raw: signedAnswers,
    },
    async (request, reply) => {
      const tenantId = seller(request).tenantId;
      const { target, rows } = await stockReplayRows(
        { db, store },
        tenantId,
        request.query,
        request.language,
      );
      const headers = STOCK_REPLAY_COLUMNS.map((column) =>
        translate(request.language, `audit.replay.columns.${column}`),
      );
      return sendSigned(
        reply,
        `stock-history-${target.master_code.code}-${target.warehouse.code}-${stamp()}.csv`,
        signedCsv(keyOf(tenantId), headers, rows),
      );
    },
  );

  for (const kind of DOCUMENT_KINDS) {
    const access = { anyOf: DOCUMENT_READERS[kind] } as const;
    route.get(
      `/api/audit/${kind}/:id`,
      {
        summary: `The history of a ${kind.replace('-', ' ')}: each event with who, when, why and its key fields before and after`,
        access,
        params: DocumentParams,
        answer: DocumentReplay,
      },
      async (request) =>
        ok(request, await documentReplay({ db, store }, seller(request).tenantId, kind, request.params.id)),
    );
    route.get(
      `/api/audit/${kind}/:id/export`,
      {
        summary: `The history of a ${kind.replace('-', ' ')} as a signed CSV`,
        access,
        params: DocumentParams,
        raw: signedAnswers,
      },
      async (request, reply) => {
        const tenantId = seller(request).tenantId;
        const replay = await documentReplay({ db, store }, tenantId, kind, request.params.id);
        const headers = DOCUMENT_REPLAY_COLUMNS.map((column) =>
          translate(request.language, `audit.replay.columns.${column}`),
        );
        return sendSigned(
          reply,
          `${kind}-history-${request.params.id}-${stamp()}.csv`,
          signedCsv(keyOf(tenantId), headers, Readable.from(documentReplayRows(replay))),
        );
      },
    );
  }

  route.post(
    '/api/audit/verify',
    {
      summary:
        'Checks a signed audit CSV: whether its rows match its SHA-256 and the hash carries Kedai’s HMAC',
      access: REPLAYERS,
      body: VerifyBody,
      answer: Verification,
      bodyLimit: SIGNED_FILE_MAX_BYTES,
    },
    async (request) => {
      const check = verifySignedCsv(keyOf(seller(request).tenantId), request.body.content);
      if (!check) throw new ApiError(400, AuditCode.signedFileInvalid, 'audit.signed_file_invalid');
      return ok(request, {
        valid: check.hashMatches && check.signatureMatches,
        hash_matches: check.hashMatches,
        signature_matches: check.signatureMatches,
        rows: check.rows,
        sha256: check.sha256,
      });
    },
  );
};
