import type { ScanSettingsBody } from '@api/contracts/scan';
import { useSaveScanSettings, useScanSettings } from '@web/api/scan';
import { CheckboxField, FormMessage, messageOf } from '@web/shell/form';
import { useNotify } from '@web/shell/notifications';
import { PageHeader } from '@web/shell/page';
import { type FormEvent, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import '@web/routes/management.css';

/**
 * Settings → Bulk scan control (spec shell.md §2 /settings/ "bulk scan control"; domain/scan/settings.ts): how the
 * account's packers may scan faster than a unit per scan — a quantity with an item, the order number in place of
 * the tracking number, one scan for every single-item order of an item in a batch. The smart scan screen follows
 * these at once, and the server refuses what they leave off. Batch managers (orders-batch) change them.
 */

const OPTIONS = ['quantity_entry', 'order_number_scan', 'bulk_single_items'] as const;

export default function BulkScanControlPage() {
  const { t } = useTranslation('batches');
  const notify = useNotify();
  const settings = useScanSettings();
  const save = useSaveScanSettings();
  const [values, setValues] = useState<ScanSettingsBody | null>(null);
  const [error, setError] = useState<unknown>(null);

  useEffect(() => {
    if (settings.data && values === null) {
      const { updated_at: _updated, ...current } = settings.data;
      setValues(current);
    }
  }, [settings.data, values]);

  if (settings.isError) return <FormMessage kind="error">{messageOf(settings.error)}</FormMessage>;
  if (!values) {
    return (
      <p className="muted" role="status">
        {t('scan_control.loading')}
      </p>
    );
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!values) return;
    setError(null);
    try {
      notify({ kind: 'success', message: (await save.mutateAsync(values)).msg });
    } catch (failure) {
      setError(failure);
    }
  }

  return (
    <div className="page management-page">
      <PageHeader title={t('scan_control.title')} intro={t('scan_control.intro')} />
      <form onSubmit={submit} noValidate>
        {error !== null && <FormMessage kind="error">{messageOf(error)}</FormMessage>}
        <fieldset className="form-section">
          <legend>{t('scan_control.options')}</legend>
          {OPTIONS.map((option) => (
            <div key={option}>
              <CheckboxField
                label={t(`scan_control.${option}`)}
                checked={values[option]}
                onChange={(event) => setValues({ ...values, [option]: event.target.checked })}
              />
              <p className="field-hint">{t(`scan_control.${option}_hint`)}</p>
            </div>
          ))}
        </fieldset>
        <div className="toolbar">
          <button type="submit" className="button button-primary" disabled={save.isPending}>
            {t('scan_control.save')}
          </button>
        </div>
      </form>
    </div>
  );
}
