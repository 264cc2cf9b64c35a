import type { Session } from '@web/auth/session';
import type { RouteAccess } from './types';

/** Whether the signed-in user may open a screen with this access rule. */
export function mayOpen(
  access: RouteAccess,
  session: Pick<Session, 'isSeller' | 'isOwner' | 'isAdmin' | 'can'>,
) {
  if (access === 'seller') return session.isSeller;
  if (access === 'owner') return session.isOwner;
  if (access === 'admin') return session.isAdmin;
  if ('anyPermission' in access)
    return session.isSeller && access.anyPermission.some((key) => session.can(key));
  return session.isSeller && session.can(access.permission);
}
