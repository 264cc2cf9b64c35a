import { useTranslation } from 'react-i18next';
import { Tabs, useTab } from '../components/tabs';
import { PlaceList } from './place-list';
import '@web/routes/management.css';
import '../inventory.css';

/** Inventory → branches (spec §3 "Warehouse and rack"): the places that hold stock, warehouses and branches. */

const TABS = ['warehouses', 'branches'] as const;

export default function BranchesPage() {
  const { t } = useTranslation('inventory');
  const [tab, setTab] = useTab(TABS);
  return (
    <div className="page management-page inventory-page">
      <div className="page-header">
        <div>
          <h1 className="page-title">{t('places.title')}</h1>
          <p className="muted">{t('places.page_intro')}</p>
        </div>
      </div>
      <Tabs
        label={t('places.tabs_label')}
        tabs={TABS.map((id) => ({ id, label: t(`places.tabs.${id}`) }))}
        current={tab}
        onChange={setTab}
      >
        <PlaceList key={tab} kind={tab === 'warehouses' ? 'warehouse' : 'branch'} />
      </Tabs>
    </div>
  );
}
