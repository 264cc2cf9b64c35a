import type { CatalogueKind } from '@web/api/inventory-catalogue';
import { PageHeader } from '@web/shell/page';
import { useTranslation } from 'react-i18next';
import { NameList } from './name-list';
import '@web/routes/management.css';
import '../inventory.css';

/** Brands or units on a page of their own, at the spec's /settings/brands and /settings/units (shell.md §2). */
export function NameListPage({ kind }: { kind: CatalogueKind }) {
  const { t } = useTranslation('inventory');
  return (
    <div className="page management-page inventory-page">
      <PageHeader title={t(kind === 'brand' ? 'categories.tabs.brands' : 'categories.tabs.units')} />
      <NameList kind={kind} />
    </div>
  );
}
