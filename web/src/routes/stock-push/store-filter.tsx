import { useStoreAllocations } from '@web/api/stock-push';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';

/** A grid toolbar's store filter: every store of the account, or all ('' ). */
export function StoreFilter({ value, onChange }: { value: string; onChange(storeId: string): void }) {
  const { t } = useTranslation('push');
  const stores = useStoreAllocations();
  const id = useId();
  return (
    <>
      <label htmlFor={id} className="visually-hidden">
        {t('log.store_filter')}
      </label>
      <select id={id} className="input" value={value} onChange={(event) => onChange(event.target.value)}>
        <option value="">{t('log.all_stores')}</option>
        {stores.data?.stores.map((option) => (
          <option key={option.store_id} value={option.store_id}>
            {option.name}
          </option>
        ))}
      </select>
    </>
  );
}
