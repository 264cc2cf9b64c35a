import type { PackageModule } from '@domain/access/packages';
import type { ComponentType, LazyExoticComponent } from 'react';

/**
 * Who may open a route: any seller user, the owner only, provider admins, holders of a permission key, or holders
 * of any of several keys (a screen that approvers with only their layer's key and managers both use).
 */
export type RouteAccess =
  | 'seller'
  | 'owner'
  | 'admin'
  | { permission: string }
  | { anyPermission: readonly string[] };

/** A screen a module adds to the console: its path, title, who may open it and where it appears in the sidebar. */
export interface ModuleRoute {
  path: string;
  /** i18n key 'ns:key' for the page title and the menu. */
  titleKey: string;
  element: LazyExoticComponent<ComponentType>;
  access: RouteAccess;
  /** The package module the screen belongs to (spec §6 package flags): without it, neither menu entry nor screen. */
  module?: PackageModule;
  menu?: {
    section: 'main' | 'orders' | 'products' | 'inventory' | 'transfers' | 'purchases' | 'settings' | 'admin';
    labelKey: string;
  };
}
