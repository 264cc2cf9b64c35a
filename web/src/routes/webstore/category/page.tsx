import { WEBSTORE_PLATFORM } from '@web/api/categories';
import { CategoryManager } from '@web/routes/settings/category/category-manager';
import { useTranslation } from 'react-i18next';

/** The seller's own web store's categories (spec route /{product}-webstore/category). */
export default function WebstoreCategoryPage() {
  const { t } = useTranslation('settings');
  return <CategoryManager platform={WEBSTORE_PLATFORM} title={t('categories.webstore_title')} />;
}
