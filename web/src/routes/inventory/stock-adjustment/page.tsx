import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import { AdjustmentForm } from './adjustment-form';
import { BulkUpload } from './bulk-upload';
import { HoldForm } from './hold-form';
import { NegativeStockSetting } from './negative-stock-setting';
import '@web/routes/management.css';
import '../stock-common/stock.css';

/**
 * Inventory → stock adjustment: one adjustment at a time, or many by uploading a file, and putting stock on hold
 * (or releasing it) for the seller, Smart POS or a supplier; the account's setting that
 * refuses negative stock for manual deductions sits in the header. The stock list can open this screen on one
 * master code and warehouse (`?master_code_id=&code=&name=&warehouse_id=`).
 */
export default function StockAdjustmentPage() {
  const { t } = useTranslation('stock');
  const [params] = useSearchParams();
  const masterCodeId = params.get('master_code_id');
  const initial = {
    masterCode: masterCodeId
      ? { id: masterCodeId, code: params.get('code') ?? '', name: params.get('name') ?? '' }
      : null,
    warehouseId: params.get('warehouse_id') ?? '',
  };
  return (
    <div className="page management-page stock-page">
      <div className="page-header">
        <div>
          <h1 className="page-title">{t('adjust.title')}</h1>
          <p className="muted">{t('adjust.intro')}</p>
        </div>
        <NegativeStockSetting />
      </div>
      <div className="stock-columns">
        {/* Opened on another row: a fresh form. */}
        <AdjustmentForm key={`${masterCodeId}@${initial.warehouseId}`} initial={initial} />
        <HoldForm key={`hold:${masterCodeId}@${initial.warehouseId}`} initial={initial} />
        <BulkUpload />
      </div>
    </div>
  );
}
