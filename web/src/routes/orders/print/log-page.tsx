import { withQuery } from '@web/api/client';
import {
  PRINT_DOCUMENTS,
  PRINT_LOG_ENDPOINT,
  PRINT_LOG_VIEW,
  PRINT_ORIGINS,
  type PrintLogRow,
} from '@web/api/printing';
import { GridScreen } from '@web/components/grid-screen';
import { useDateTime } from '@web/shell/format';
import type { ColDef } from 'ag-grid-community';
import { useId, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import './printing.css';

/**
 * Orders → Print log (spec §9 print log types AWB/INV/PL/CL/DO, origins unscan, smart scan, shipped, processed):
 * every print of an order's document, newest first, with the order and tracking number, who printed it and when;
 * filtered by document and origin, searched by order or tracking number. New prints appear as they are made.
 */

function useColumns(): ColDef<PrintLogRow>[] {
  const { t } = useTranslation('printing');
  const when = useDateTime();
  return useMemo(
    () => [
      {
        colId: 'printed_at',
        headerName: t('log.columns.printed_at'),
        valueGetter: ({ data }) => when(data?.printed_at),
        sortable: true,
        minWidth: 160,
      },
      {
        colId: 'document',
        headerName: t('log.columns.document'),
        valueGetter: ({ data }) => (data ? t(`documents.${data.document}`) : ''),
        sortable: true,
        minWidth: 130,
      },
      {
        colId: 'origin',
        headerName: t('log.columns.origin'),
        valueGetter: ({ data }) => (data ? t(`origins.${data.origin}`) : ''),
        sortable: true,
        minWidth: 120,
      },
      {
        colId: 'order_number',
        headerName: t('log.columns.order_number'),
        valueGetter: ({ data }) => data?.order_number ?? '',
        sortable: true,
        flex: 1,
        minWidth: 160,
      },
      {
        colId: 'tracking_number',
        headerName: t('log.columns.tracking_number'),
        valueGetter: ({ data }) => data?.tracking_number ?? '',
        minWidth: 160,
      },
      {
        colId: 'printed_by',
        headerName: t('log.columns.printed_by'),
        valueGetter: ({ data }) => data?.printed_by?.name ?? '',
        minWidth: 140,
      },
    ],
    [t, when],
  );
}

export default function PrintLogPage() {
  const { t } = useTranslation('printing');
  const documentId = useId();
  const originId = useId();
  const [document, setDocument] = useState('');
  const [origin, setOrigin] = useState('');
  const endpoint = withQuery(PRINT_LOG_ENDPOINT, {
    document: document || undefined,
    origin: origin || undefined,
  });
  return (
    <GridScreen<PrintLogRow>
      namespace="printing"
      prefix="log"
      gridId="orders.print-log"
      endpoint={endpoint}
      useColumns={useColumns}
      live={PRINT_LOG_VIEW}
      actions={
        <Link className="button" to="/orders/print-settings">
          {t('nav.settings')}
        </Link>
      }
      filters={
        <>
          <label htmlFor={documentId} className="visually-hidden">
            {t('log.document_filter')}
          </label>
          <select
            id={documentId}
            className="input"
            value={document}
            onChange={(event) => setDocument(event.target.value)}
          >
            <option value="">{t('log.all_documents')}</option>
            {PRINT_DOCUMENTS.map((value) => (
              <option key={value} value={value}>
                {t(`documents.${value}`)}
              </option>
            ))}
          </select>
          <label htmlFor={originId} className="visually-hidden">
            {t('log.origin_filter')}
          </label>
          <select
            id={originId}
            className="input"
            value={origin}
            onChange={(event) => setOrigin(event.target.value)}
          >
            <option value="">{t('log.all_origins')}</option>
            {PRINT_ORIGINS.map((value) => (
              <option key={value} value={value}>
                {t(`origins.${value}`)}
              </option>
            ))}
          </select>
        </>
      }
    />
  );
}
