import {
  type InventoryCategoryNode,
  useAddInventoryCategory,
  useDeleteInventoryCategory,
  useInventoryCategories,
  useUpdateInventoryCategory,
} from '@web/api/inventory-catalogue';
import { CategoryTreeEditor } from '@web/components/category-tree-editor';
import { PageHeader } from '@web/shell/page';
import { useTranslation } from 'react-i18next';
import { Tabs, useTab } from '../components/tabs';
import { NameList } from './name-list';
import '@web/routes/management.css';
import '../inventory.css';

/**
 * Inventory → categories: the master codes' category tree (in the shared tree editor, narrowed by name as you type;
 * the API refuses deleting a category in use or with sub-categories, and moving one under itself), brands and
 * units, one tab each.
 */

const TABS = ['categories', 'brands', 'units'] as const;

function InventoryCategoryTree() {
  const { t } = useTranslation('inventory');
  return (
    <CategoryTreeEditor<InventoryCategoryNode>
      namespace="inventory"
      tree={useInventoryCategories()}
      add={useAddInventoryCategory()}
      update={useUpdateInventoryCategory()}
      remove={useDeleteInventoryCategory()}
      note={(node) => (
        <span className="muted category-count">
          {t('categories.master_code_count', { count: node.master_code_count })}
        </span>
      )}
      deleteMessage={(node) => t('categories.delete_confirm', { name: node.name })}
    />
  );
}

export default function InventoryCategoriesPage() {
  const { t } = useTranslation('inventory');
  const [tab, setTab] = useTab(TABS);
  return (
    <div className="page management-page inventory-page">
      <PageHeader title={t('categories.title')} intro={t('categories.intro')} />
      <Tabs
        label={t('categories.tabs_label')}
        tabs={TABS.map((id) => ({ id, label: t(`categories.tabs.${id}`) }))}
        current={tab}
        onChange={setTab}
      >
        {tab === 'categories' ? (
          <InventoryCategoryTree />
        ) : (
          <NameList key={tab} kind={tab === 'brands' ? 'brand' : 'unit'} />
        )}
      </Tabs>
    </div>
  );
}
