import {
  CONTROL_KEY,
  type PriceRuleBody,
  type PricingAnswer,
  priceLogEndpoint,
  usePricing,
  usePromotionStores,
  usePushPrices,
  useSavePriceRule,
} from '@web/api/promotions';
import { type PushLogRow as LogRow, PUSH_LOG_VIEW } from '@web/api/stock-push';
import { useSession } from '@web/auth/session';
import { GridScreen } from '@web/components/grid-screen';
import Forbidden from '@web/routes/forbidden';
import { FormMessage, fieldErrorsOf, messageOf, SelectField, TextField } from '@web/shell/form';
import { useDateTime } from '@web/shell/format';
import { useNotify } from '@web/shell/notifications';
import { PageHeader } from '@web/shell/page';
import type { ColDef } from 'ag-grid-community';
import { type FormEvent, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { skuLabel } from './promotion-form';

/**
 * Products → price control per marketplace (`/products/marketplace-pricing`): a store's price rule (markup over the
 * master code's price, a fixed amount, rounding up to an ending, a price of its own per SKU), the preview of what
 * it gives each linked SKU, "push prices" to the channel, and the store's price pushes from the push log: every
 * try with the channel's answer (it follows the push log's live view).
 */

const ROUNDINGS = ['none', 'whole', 'ninety', 'ninety_nine'] as const;

function useLogColumns(): ColDef<LogRow>[] {
  const { t } = useTranslation('promotions');
  const when = useDateTime({ seconds: true });
  return useMemo(
    () => [
      {
        colId: 'pushed_at',
        headerName: t('pricing.log.at'),
        valueGetter: ({ data }) => when(data?.pushed_at),
        sortable: true,
        minWidth: 170,
      },
      {
        colId: 'seller_sku',
        field: 'seller_sku',
        headerName: t('pricing.log.sku'),
        sortable: true,
        minWidth: 150,
      },
      {
        colId: 'price',
        field: 'price',
        headerName: t('pricing.log.price'),
        sortable: true,
        type: 'rightAligned',
      },
      {
        colId: 'attempt',
        field: 'attempt',
        headerName: t('pricing.log.attempt'),
        type: 'rightAligned',
        maxWidth: 110,
      },
      {
        colId: 'outcome',
        headerName: t('pricing.log.outcome'),
        valueGetter: ({ data }) => (data ? t(`pricing.outcome.${data.outcome}`) : ''),
        minWidth: 120,
      },
      { colId: 'answer', field: 'answer', headerName: t('pricing.log.reason'), flex: 1, minWidth: 160 },
    ],
    [t, when],
  );
}

function RuleForm({ storeId, pricing }: { storeId: string; pricing: PricingAnswer }) {
  const { t } = useTranslation('promotions');
  const notify = useNotify();
  const save = useSavePriceRule(storeId);
  const push = usePushPrices(storeId);
  const [markup, setMarkup] = useState(String(pricing.rule.markup_percent));
  const [fixed, setFixed] = useState(pricing.rule.fixed_amount);
  const [rounding, setRounding] = useState<PriceRuleBody['rounding']>(pricing.rule.rounding);
  const [overrides, setOverrides] = useState<Record<string, string>>(pricing.rule.overrides ?? {});
  const [refused, setRefused] = useState<unknown>(null);
  const errors = fieldErrorsOf(refused);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setRefused(null);
    const own = Object.fromEntries(Object.entries(overrides).filter(([, price]) => price.trim() !== ''));
    try {
      const answer = await save.mutateAsync({
        markup_percent: Number(markup),
        fixed_amount: fixed.trim() || '0',
        rounding,
        overrides: own,
      });
      notify({ kind: 'success', message: answer.msg });
    } catch (error) {
      setRefused(error);
    }
  }

  const pushNow = () =>
    push.mutate(undefined, {
      onSuccess: (answer) => notify({ kind: 'success', message: answer.msg }),
      onError: (error) => notify({ kind: 'error', message: messageOf(error) }),
    });

  return (
    <form onSubmit={submit} noValidate aria-label={t('pricing.rule')}>
      {refused !== null && <FormMessage kind="error">{messageOf(refused)}</FormMessage>}
      <div className="form-grid">
        <TextField
          label={t('pricing.markup')}
          inputMode="decimal"
          value={markup}
          onChange={(event) => setMarkup(event.target.value)}
          error={errors.markup_percent}
        />
        <TextField
          label={t('pricing.fixed')}
          inputMode="decimal"
          value={fixed}
          onChange={(event) => setFixed(event.target.value)}
          error={errors.fixed_amount}
        />
        <SelectField
          label={t('pricing.rounding')}
          value={rounding}
          onChange={(event) => setRounding(event.target.value as PriceRuleBody['rounding'])}
          options={ROUNDINGS.map((value) => ({ value, label: t(`pricing.roundings.${value}`) }))}
        />
      </div>
      <table className="table">
        <caption>{t('pricing.preview')}</caption>
        <thead>
          <tr>
            <th scope="col">{t('pricing.columns.sku')}</th>
            <th scope="col">{t('pricing.columns.master_code')}</th>
            <th scope="col">{t('pricing.columns.master_price')}</th>
            <th scope="col">{t('pricing.columns.channel_price')}</th>
            <th scope="col">{t('pricing.columns.new_price')}</th>
            <th scope="col">{t('pricing.columns.own_price')}</th>
          </tr>
        </thead>
        <tbody>
          {pricing.rows.map((row) => {
            const key = `${row.item_id}:${row.model_id}`;
            return (
              <tr key={key}>
                <td>{skuLabel(row)}</td>
                <td>{row.master_code?.code ?? t('pricing.unlinked')}</td>
                <td>{row.master_code?.unit_price ?? ''}</td>
                <td>{row.price}</td>
                <td>{row.new_price ?? '—'}</td>
                <td>
                  <input
                    className="input input-small"
                    inputMode="decimal"
                    disabled={!row.master_code}
                    aria-label={t('pricing.own_price_for', { sku: row.seller_sku })}
                    value={overrides[key] ?? ''}
                    onChange={(event) =>
                      setOverrides((current) => ({ ...current, [key]: event.target.value }))
                    }
                  />
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
      <div className="form-actions">
        <button type="submit" className="button button-primary" disabled={save.isPending}>
          {t('pricing.save')}
        </button>
        <button type="button" className="button button-secondary" onClick={pushNow} disabled={push.isPending}>
          {t('pricing.push')}
        </button>
      </div>
    </form>
  );
}

export default function MarketplacePricingPage() {
  const { t } = useTranslation('promotions');
  const { can } = useSession();
  const stores = usePromotionStores();
  const [storeId, setStoreId] = useState('');
  const pricing = usePricing(storeId);
  if (!can(CONTROL_KEY)) return <Forbidden />;
  return (
    <div className="page">
      <PageHeader title={t('pricing.title')} intro={t('pricing.intro')} />
      <SelectField
        label={t('form.store')}
        value={storeId}
        onChange={(event) => setStoreId(event.target.value)}
        placeholder={t('form.choose_store')}
        options={(stores.data ?? []).map((store) => ({ value: store.id, label: store.name }))}
      />
      {pricing.data && (
        <>
          <RuleForm key={`${storeId}:${pricing.data.updated_at}`} storeId={storeId} pricing={pricing.data} />
          <GridScreen<LogRow>
            namespace="promotions"
            prefix="pricing.log"
            gridId="products.marketplace-pricing.log"
            endpoint={priceLogEndpoint(storeId)}
            useColumns={useLogColumns}
            live={PUSH_LOG_VIEW}
          />
        </>
      )}
    </div>
  );
}
