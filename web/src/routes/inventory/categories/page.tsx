import { useTranslation } from 'react-i18next';
import { Tabs, useTab } from '../components/tabs';
import { CategoryTree } from './category-tree';
import { NameList } from './name-list';
import '@web/routes/management.css';
import '../inventory.css';

/** Inventory → categories: the master codes' category tree, brands and units, one tab each. */

const TABS = ['categories', 'brands', 'units'] as const;

export default function InventoryCategoriesPage() {
  const { t } = useTranslation('inventory');
  const [tab, setTab] = useTab(TABS);
  return (
    <div className="page management-page inventory-page">
      <div className="page-header">
        <div>
          <h1 className="page-title">{t('categories.title')}</h1>
          <p className="muted">{t('categories.intro')}</p>
        </div>
      </div>
      <Tabs
        label={t('categories.tabs_label')}
        tabs={TABS.map((id) => ({ id, label: t(`categories.tabs.${id}`) }))}
        current={tab}
        onChange={setTab}
      >
        {tab === 'categories' ? (
          <CategoryTree />
        ) : (
          <NameList key={tab} kind={tab === 'brands' ? 'brand' : 'unit'} />
        )}
      </Tabs>
    </div>
  );
}
