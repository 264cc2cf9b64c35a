import { ORDER_ALIASES } from '@web/routes/orders/aliases';
import { Navigate, useLocation } from 'react-router-dom';

/** A list route of spec §2 (/orders/new-orders, /orders/unscan, …): the board on its tab. */
export default function OrderListAlias() {
  const { pathname, search } = useLocation();
  const tab = ORDER_ALIASES[pathname.split('/').filter(Boolean).at(-1) ?? ''] ?? 'all';
  return <Navigate to={`/orders/manage/${tab}${search}`} replace />;
}
