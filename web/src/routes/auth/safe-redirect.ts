import { adminRoutes } from '@web/routes/admin/routes';

/** Where to go after signing in: the `redirect` query when it is a path inside the console, else home. */
export function afterSignIn(redirect: string | null, admin: boolean): string {
  if (redirect?.startsWith('/') && !redirect.startsWith('//') && !redirect.startsWith('/login')) {
    return redirect;
  }
  if (admin) {
    const first = adminRoutes.find((route) => route.menu);
    return first ? `/${first.path}` : '/';
  }
  return '/';
}
