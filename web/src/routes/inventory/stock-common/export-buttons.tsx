import { ApiFailure } from '@web/api/client';
import { messageOf } from '@web/shell/form';
import { useNotify } from '@web/shell/notifications';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

/** Export CSV | Export XLSX for a stock report: `download` fetches the file and answers its name. */
export function ExportButtons({ download }: { download(format: 'csv' | 'xlsx'): Promise<string> }) {
  const { t } = useTranslation('stock');
  const notify = useNotify();
  const [exporting, setExporting] = useState<'csv' | 'xlsx' | null>(null);

  async function run(format: 'csv' | 'xlsx') {
    setExporting(format);
    try {
      const file = await download(format);
      notify({ kind: 'success', message: t('movements.exported', { file }) });
    } catch (error) {
      notify({
        kind: 'error',
        message: error instanceof ApiFailure ? messageOf(error) : t('download.denied'),
      });
    } finally {
      setExporting(null);
    }
  }

  return (
    <>
      {(['csv', 'xlsx'] as const).map((format) => (
        <button
          key={format}
          type="button"
          className="button"
          disabled={exporting !== null}
          onClick={() => run(format)}
        >
          {exporting === format ? t('movements.exporting') : t(`movements.export_${format}`)}
        </button>
      ))}
    </>
  );
}
