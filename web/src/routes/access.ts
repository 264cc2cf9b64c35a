import type { Session } from '@web/auth/session';
import type { ModuleRoute } from './types';

/**
 * Whether the signed-in user may open a screen: its access rule, and the package module it belongs to. The menu,
 * the dashboard's shortcuts and the router all ask here, so a screen the API would refuse is neither offered nor
 * opened.
 */
export function mayOpen(
  route: Pick<ModuleRoute, 'access' | 'module'>,
  session: Pick<Session, 'isSeller' | 'isOwner' | 'isAdmin' | 'can' | 'hasModule'>,
) {
  if (route.module && !session.hasModule(route.module)) return false;
  const access = route.access;
  if (access === 'seller') return session.isSeller;
  if (access === 'owner') return session.isOwner;
  if (access === 'admin') return session.isAdmin;
  if ('anyPermission' in access)
    return session.isSeller && access.anyPermission.some((key) => session.can(key));
  return session.isSeller && session.can(access.permission);
}
