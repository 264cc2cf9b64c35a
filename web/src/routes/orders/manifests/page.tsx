import { type Answer, api } from '@web/api/client';
import { DownloadDenied, downloadFile } from '@web/api/download';
import { thisMonth } from '@web/api/manifests';
import { useSession } from '@web/auth/session';
import type { DataGridHandle } from '@web/components/data-grid';
import { GridScreen } from '@web/components/grid-screen';
import { FormMessage, messageOf } from '@web/shell/form';
import { useDateTime } from '@web/shell/format';
import { useNotify } from '@web/shell/notifications';
import type { ColDef, ICellRendererParams } from 'ag-grid-community';
import { type FormEvent, useId, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import '../print/printing.css';

/**
 * Orders → Carrier manifests (spec §3 "Carrier manifest": month, total shipped orders, created by): one manifest per
 * month counting the orders shipped that month per carrier; creating a month again counts again. Each manifest
 * exports its orders as CSV. Needs orders-manifest-export-v1.
 */

const MANIFESTS_ENDPOINT = '/api/orders/carrier-manifests';

interface ManifestRow {
  id: string;
  month: string;
  total_shipped: number;
  carriers: { provider: string; count: number }[];
  created_by: { id: string; name: string } | null;
  created_at: string;
  updated_at: string;
}

function ExportCell({ data }: ICellRendererParams<ManifestRow>) {
  const { t } = useTranslation('returns');
  const notify = useNotify();
  const [busy, setBusy] = useState(false);
  // Exports are the package's download module (spec §6 package flags).
  const { hasModule } = useSession();
  if (!data || !hasModule('downloadModule')) return null;
  return (
    <button
      type="button"
      className="button button-small"
      disabled={busy}
      aria-label={t('manifests.export_named', { month: data.month })}
      onClick={async () => {
        setBusy(true);
        try {
          await downloadFile(`${MANIFESTS_ENDPOINT}/${data.id}/export`, {
            fileName: `carrier-manifest-${data.month}.csv`,
          });
        } catch (error) {
          notify({
            kind: 'error',
            message: error instanceof DownloadDenied ? t('manifests.download_denied') : messageOf(error),
          });
        } finally {
          setBusy(false);
        }
      }}
    >
      {t('manifests.export')}
    </button>
  );
}

function useColumns(): ColDef<ManifestRow>[] {
  const { t, i18n } = useTranslation('returns');
  const when = useDateTime();
  return useMemo(() => {
    const number = new Intl.NumberFormat(i18n.language);
    return [
      { colId: 'month', field: 'month', headerName: t('manifests.columns.month'), minWidth: 110 },
      {
        colId: 'total_shipped',
        headerName: t('manifests.columns.total_shipped'),
        valueGetter: ({ data }) => (data ? number.format(data.total_shipped) : ''),
        type: 'rightAligned',
        minWidth: 140,
      },
      {
        colId: 'carriers',
        headerName: t('manifests.columns.carriers'),
        valueGetter: ({ data }) =>
          data?.carriers
            .map(
              (carrier) =>
                `${carrier.provider || t('manifests.no_carrier')}: ${number.format(carrier.count)}`,
            )
            .join(' · ') ?? '',
        flex: 1,
        minWidth: 220,
      },
      {
        colId: 'created_by',
        headerName: t('manifests.columns.created_by'),
        valueGetter: ({ data }) => data?.created_by?.name ?? '',
        minWidth: 130,
      },
      {
        colId: 'updated_at',
        headerName: t('manifests.columns.updated_at'),
        valueGetter: ({ data }) => when(data?.updated_at),
        minWidth: 150,
      },
      { colId: 'export', headerName: '', cellRenderer: ExportCell, minWidth: 110, maxWidth: 130 },
    ] satisfies ColDef<ManifestRow>[];
  }, [t, i18n.language, when]);
}

export default function CarrierManifestsPage() {
  const { t } = useTranslation('returns');
  const notify = useNotify();
  const monthId = useId();
  const grid = useRef<DataGridHandle>(null);
  const [month, setMonth] = useState(thisMonth());
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const columns = useColumns();

  async function create(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const answer = await api<Answer<ManifestRow>>(MANIFESTS_ENDPOINT, { method: 'POST', body: { month } });
      notify({ kind: 'success', message: answer.msg });
      grid.current?.refresh();
    } catch (failure) {
      setError(messageOf(failure));
    } finally {
      setBusy(false);
    }
  }

  return (
    <GridScreen<ManifestRow>
      namespace="returns"
      prefix="manifests"
      gridId="orders.carrier-manifests"
      endpoint={MANIFESTS_ENDPOINT}
      useColumns={() => columns}
      grid={grid}
      search={false}
      above={
        <>
          <form className="toolbar manifest-create" onSubmit={create}>
            <label htmlFor={monthId} className="field-label">
              {t('manifests.month')}
            </label>
            <input
              id={monthId}
              type="month"
              className="input"
              value={month}
              max={thisMonth()}
              required
              onChange={(event) => setMonth(event.target.value)}
            />
            <button type="submit" className="button button-primary" disabled={busy || !month}>
              {t('manifests.create')}
            </button>
          </form>
          {error && <FormMessage kind="error">{error}</FormMessage>}
        </>
      }
    />
  );
}
