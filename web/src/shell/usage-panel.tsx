import { useQuery } from '@tanstack/react-query';
import { fetchUsage, sessionKeys, type Usage } from '@web/api/session';
import { useSession } from '@web/auth/session';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { useMoney } from './format';
import { GaugeIcon } from './icons';
import { usePopover } from './popover';

/** The header's usage-limit panel (spec §2): what the seller's package allows and how much is used. */
export function UsagePanel() {
  const { t, i18n } = useTranslation('common');
  const { token } = useSession();
  const { open, setOpen, ref } = usePopover<HTMLDivElement>();
  const panelId = useId();
  const usage = useQuery({ queryKey: sessionKeys.usage(token), queryFn: fetchUsage, staleTime: 60_000 });
  const number = new Intl.NumberFormat(i18n.language);

  const ratio = (value: Usage) =>
    value.limit === null
      ? t('usage.used_unlimited', { used: number.format(value.used), unlimited: t('usage.unlimited') })
      : t('usage.used_of', { used: number.format(value.used), limit: number.format(value.limit) });
  const share = (value: Usage) =>
    value.limit === null || value.limit === 0 ? 0 : Math.min(100, (value.used / value.limit) * 100);
  const money = useMoney();
  const yesNo = (value: boolean) => t(value ? 'usage.enabled' : 'usage.disabled');

  const data = usage.data;
  const meters: { key: string; value: Usage }[] = data
    ? [
        { key: 'monthly_orders', value: data.monthlyOrders },
        { key: 'master_codes', value: data.masterCodes },
        { key: 'marketplaces', value: data.marketplaces },
        { key: 'sub_users', value: data.subUsers },
        { key: 'branches', value: data.branches },
      ]
    : [];

  return (
    <div className="popover-anchor" ref={ref}>
      <button
        type="button"
        className="header-button"
        aria-expanded={open}
        aria-controls={panelId}
        onClick={() => setOpen(!open)}
      >
        <GaugeIcon /> <span className="header-button-label">{t('usage.button')}</span>
      </button>
      {open && (
        <section id={panelId} className="popover usage-panel" aria-label={t('usage.title')}>
          <h2>{t('usage.title')}</h2>
          {usage.isPending && <p className="muted">{t('loading')}</p>}
          {usage.isError && <p className="error-text">{usage.error.message}</p>}
          {data && (
            <>
              <p className="usage-package">
                {t('usage.package')}: <strong>{data.package.name}</strong>
              </p>
              <dl className="usage-list">
                {meters.map(({ key, value }) => (
                  <div key={key} className="usage-row">
                    <dt>{t(`usage.${key}`)}</dt>
                    <dd>
                      <span>{ratio(value)}</span>
                      {value.limit !== null && (
                        <span className="meter" aria-hidden="true">
                          <span className="meter-fill" style={{ width: `${share(value)}%` }} />
                        </span>
                      )}
                    </dd>
                  </div>
                ))}
                <div className="usage-row">
                  <dt>{t('usage.held_orders')}</dt>
                  <dd>{number.format(data.monthlyOrders.held)}</dd>
                </div>
                <div className="usage-row">
                  <dt>{t('usage.dropshipping')}</dt>
                  <dd>{yesNo(data.dropshipping)}</dd>
                </div>
                <div className="usage-row">
                  <dt>{t('usage.supplier')}</dt>
                  <dd>{yesNo(data.supplier)}</dd>
                </div>
                <div className="usage-row">
                  <dt>{t('usage.dealer_level')}</dt>
                  <dd>{data.dealerLevel ?? t('usage.none')}</dd>
                </div>
                <div className="usage-row">
                  <dt>{t('usage.ewallet_balance')}</dt>
                  <dd>{money(data.ewalletBalance)}</dd>
                </div>
              </dl>
            </>
          )}
        </section>
      )}
    </div>
  );
}
