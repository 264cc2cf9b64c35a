import type { InvoiceLine, ManifestInvoice } from '@api/contracts/manifests';
import { DownloadDenied } from '@web/api/download';
import { downloadManifestInvoice, thisMonth, useManifestInvoice } from '@web/api/manifests';
import { useSession } from '@web/auth/session';
import { FormMessage, messageOf } from '@web/shell/form';
import { useDateTime, useMoney } from '@web/shell/format';
import { useNotify } from '@web/shell/notifications';
import { PageHeader } from '@web/shell/page';
import { useId, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import './invoice.css';

/**
 * Orders → Manifest invoice (/orders/manifest-invoice; commands/orders/manifest-invoice.ts): the carrier manifest's
 * billing view. For a month, per carrier: parcels, units, weight and postage, with totals, to check a carrier's
 * bill against; unknown weights and postage are said, not counted as zero. Printed as it stands (the console around
 * it is left out) or exported as CSV, one row per parcel. Needs orders-manifest-export-v1.
 */

export default function ManifestInvoicePage() {
  const { t } = useTranslation('returns');
  const notify = useNotify();
  const monthId = useId();
  const { hasModule } = useSession();
  const [month, setMonth] = useState(thisMonth());
  const [busy, setBusy] = useState(false);
  const invoice = useManifestInvoice(month);
  const when = useDateTime();

  async function exportCsv() {
    setBusy(true);
    try {
      await downloadManifestInvoice(month);
    } catch (error) {
      notify({
        kind: 'error',
        message: error instanceof DownloadDenied ? t('manifests.download_denied') : messageOf(error),
      });
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="page management-page manifest-invoice-page">
      <PageHeader title={t('manifests.invoice.title')} intro={t('manifests.invoice.intro')} />
      <div className="toolbar manifest-invoice-controls">
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
        <button type="button" className="button" disabled={!invoice.data} onClick={() => window.print()}>
          {t('manifests.invoice.print')}
        </button>
        {hasModule('downloadModule') && (
          <button type="button" className="button" disabled={busy || !month} onClick={exportCsv}>
            {t('manifests.invoice.export')}
          </button>
        )}
      </div>
      {invoice.error && <FormMessage kind="error">{messageOf(invoice.error)}</FormMessage>}
      {invoice.data && (
        <>
          <p className="muted">
            {invoice.data.manifest
              ? t('manifests.invoice.manifest_at', { at: when(invoice.data.manifest.updated_at) })
              : t('manifests.invoice.manifest_none')}
          </p>
          {invoice.data.carriers.length === 0 ? (
            <p className="muted">{t('manifests.invoice.empty', { month: invoice.data.month })}</p>
          ) : (
            <InvoiceTable invoice={invoice.data} />
          )}
        </>
      )}
    </div>
  );
}

function InvoiceTable({ invoice }: { invoice: ManifestInvoice }) {
  const { t, i18n } = useTranslation('returns');
  const money = useMoney();
  const number = useMemo(() => new Intl.NumberFormat(i18n.language), [i18n.language]);
  const weight = useMemo(
    () => new Intl.NumberFormat(i18n.language, { minimumFractionDigits: 3, maximumFractionDigits: 3 }),
    [i18n.language],
  );
  const row = (line: InvoiceLine, label: string) => (
    <>
      <td>{label}</td>
      <td className="number">{number.format(line.parcels)}</td>
      <td className="number">{number.format(line.units)}</td>
      <td className="number">
        {weight.format(Number(line.weight_kg))}
        {line.unweighed_parcels > 0 && (
          <div className="muted">{t('manifests.invoice.unweighed', { count: line.unweighed_parcels })}</div>
        )}
      </td>
      <td className="number">
        {line.postage.map((entry) => (
          <div key={entry.currency}>{`${entry.currency} ${money(entry.amount)}`}</div>
        ))}
        {line.unpriced_parcels > 0 && (
          <div className="muted">{t('manifests.invoice.unpriced', { count: line.unpriced_parcels })}</div>
        )}
      </td>
    </>
  );
  return (
    <table
      className="manifest-invoice-table"
      aria-label={t('manifests.invoice.table_label', { month: invoice.month })}
    >
      <thead>
        <tr>
          <th>{t('manifests.invoice.columns.carrier')}</th>
          <th className="number">{t('manifests.invoice.columns.parcels')}</th>
          <th className="number">{t('manifests.invoice.columns.units')}</th>
          <th className="number">{t('manifests.invoice.columns.weight_kg')}</th>
          <th className="number">{t('manifests.invoice.columns.postage')}</th>
        </tr>
      </thead>
      <tbody>
        {invoice.carriers.map((line) => (
          <tr key={line.provider}>{row(line, line.provider || t('manifests.no_carrier'))}</tr>
        ))}
      </tbody>
      <tfoot>
        <tr>{row(invoice.totals, t('manifests.invoice.totals'))}</tr>
      </tfoot>
    </table>
  );
}
