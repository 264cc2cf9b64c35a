import {
  CATEGORY_SEARCH_MIN_LENGTH,
  type CategoryNode,
  useAddCategory,
  useCategorySearch,
  useCategoryTree,
  useDeleteCategory,
  useUpdateCategory,
} from '@web/api/categories';
import { useSession } from '@web/auth/session';
import { CategoryTreeEditor } from '@web/components/category-tree-editor';
import { PageHeader } from '@web/shell/page';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import '@web/routes/management.css';

/**
 * One platform's category tree (spec §3, §5, §8, §9) in the shared tree editor: shown from the root or from an
 * opened category; delete asks first and takes the sub-categories with it; search starts at 2 characters. Users
 * without `listings-manage` see the tree without the buttons that change it.
 */
export function CategoryManager({ platform, title }: { platform: string; title: string }) {
  const { t } = useTranslation('settings');
  const { can } = useSession();
  const [query, setQuery] = useState('');
  const results = useCategorySearch(platform, query.length >= CATEGORY_SEARCH_MIN_LENGTH ? query : '');
  return (
    <div className="page management-page">
      <PageHeader title={title} intro={t('categories.intro')} />
      <CategoryTreeEditor<CategoryNode>
        namespace="settings"
        tree={useCategoryTree(platform)}
        add={useAddCategory(platform)}
        update={useUpdateCategory(platform)}
        remove={useDeleteCategory(platform)}
        canManage={can('listings-manage')}
        drillDown
        search={{ minLength: CATEGORY_SEARCH_MIN_LENGTH, query, onQuery: setQuery, results }}
        note={(node) =>
          node.children.length > 0 && <span className="muted category-count">({node.children.length})</span>
        }
        deleteMessage={(node, below) =>
          below > 0
            ? t('categories.delete_confirm_tree', { name: node.name, count: below })
            : t('categories.delete_confirm', { name: node.name })
        }
      />
    </div>
  );
}
