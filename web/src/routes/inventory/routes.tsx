import type { ModuleRoute } from '@web/routes/types';
import { lazyScreen } from '@web/shell/lazy-screen';

/**
 * The inventory's reference data (spec §2 /inventory/): master codes and their editor, wholesale pricing, combos,
 * warehouses and branches, racks and rack locations, categories with brands and units — each behind its permission
 * key (spec §6).
 */

const masterCodeEditor = lazyScreen(() => import('./master-code-editor/page'));

export const inventoryRoutes: ModuleRoute[] = [
  {
    path: 'inventory/master-code',
    titleKey: 'inventory:master_code.title',
    element: lazyScreen(() => import('./master-code/page')),
    access: { permission: 'inventory-master-code' },
    menu: { section: 'inventory', labelKey: 'inventory:nav.master_code' },
  },
  {
    path: 'inventory/master-code/new',
    titleKey: 'inventory:master_code.new_title',
    element: masterCodeEditor,
    access: { permission: 'inventory-master-code' },
  },
  {
    path: 'inventory/master-code/:id',
    titleKey: 'inventory:master_code.editor_title',
    element: masterCodeEditor,
    access: { permission: 'inventory-master-code' },
  },
  {
    path: 'inventory/wholesale-pricing',
    titleKey: 'inventory:wholesale.title',
    element: lazyScreen(() => import('./wholesale-pricing/page')),
    access: { anyPermission: ['inventory-master-code', 'pos-wholesale-price'] },
    menu: { section: 'inventory', labelKey: 'inventory:nav.wholesale_pricing' },
  },
  {
    path: 'inventory/combo-list',
    titleKey: 'inventory:combo.title',
    element: lazyScreen(() => import('./combo-list/page')),
    access: { permission: 'inventory-combo-list' },
    menu: { section: 'inventory', labelKey: 'inventory:nav.combo_list' },
  },
  {
    path: 'inventory/combo-list/new',
    titleKey: 'inventory:combo.new_title',
    element: lazyScreen(() => import('./combo-editor/page')),
    access: { permission: 'inventory-combo-list' },
  },
  {
    path: 'inventory/branches',
    titleKey: 'inventory:places.title',
    element: lazyScreen(() => import('./branches/page')),
    access: { permission: 'inventory-warehouse' },
    menu: { section: 'inventory', labelKey: 'inventory:nav.branches' },
  },
  {
    path: 'inventory/rack-location',
    titleKey: 'inventory:racks.title',
    element: lazyScreen(() => import('./rack-location/page')),
    access: { permission: 'inventory-rack' },
    menu: { section: 'inventory', labelKey: 'inventory:nav.rack_location' },
  },
  {
    path: 'inventory/categories',
    titleKey: 'inventory:categories.title',
    element: lazyScreen(() => import('./categories/page')),
    access: { permission: 'inventory-categories' },
    menu: { section: 'inventory', labelKey: 'inventory:nav.categories' },
  },
  // The brands and units tabs of the categories, also at the spec's settings paths (shell.md §2 /settings/).
  {
    path: 'settings/brands',
    titleKey: 'inventory:categories.tabs.brands',
    element: lazyScreen(() => import('./categories/brands-page')),
    access: { permission: 'inventory-categories' },
    menu: { section: 'settings', labelKey: 'inventory:categories.tabs.brands' },
  },
  {
    path: 'settings/units',
    titleKey: 'inventory:categories.tabs.units',
    element: lazyScreen(() => import('./categories/units-page')),
    access: { permission: 'inventory-categories' },
    menu: { section: 'settings', labelKey: 'inventory:categories.tabs.units' },
  },
];
