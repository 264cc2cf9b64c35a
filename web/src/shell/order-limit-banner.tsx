import { useQuery } from '@tanstack/react-query';
import { fetchUsage, sessionKeys } from '@web/api/session';
import { useSession } from '@web/auth/session';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';

/** How often the banner asks again: orders are held (and released) by imports and the release schedule. */
const REFRESH_MS = 60_000;

/**
 * The monthly order limit's banner (issue 14): shown in the shell while the account has orders held over its
 * package's monthly order limit, or has reached the limit, so that no order waits unnoticed.
 */
export function OrderLimitBanner() {
  const { t, i18n } = useTranslation('common');
  const { token } = useSession();
  const usage = useQuery({
    queryKey: sessionKeys.usage(token),
    queryFn: fetchUsage,
    staleTime: REFRESH_MS,
    refetchInterval: REFRESH_MS,
  });
  const orders = usage.data?.monthlyOrders;
  if (!orders || orders.limit === null) return null;
  const number = new Intl.NumberFormat(i18n.language);
  const limit = number.format(orders.limit);
  if (orders.held > 0) {
    return (
      <div className="order-limit-banner" role="alert" data-testid="order-limit-banner">
        <span>{t('order_limit.held', { count: orders.held, held: number.format(orders.held), limit })}</span>
        <Link to="/orders/manage?filter=on_hold">{t('order_limit.show_held')}</Link>
      </div>
    );
  }
  if (orders.used < orders.limit) return null;
  return (
    <div className="order-limit-banner" role="status" data-testid="order-limit-banner">
      <span>{t('order_limit.reached', { limit })}</span>
    </div>
  );
}
