import { GIFT_TYPES, SPENDING_TYPES } from '@domain/promotions/promotion';
import type { ChannelSkuRow, GiftBody } from '@web/api/promotions';
import { CheckboxField, SelectField, TextField } from '@web/shell/form';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  type Period,
  PeriodFields,
  PromotionDialog,
  periodBody,
  skuLabel,
  useStoreSkus,
} from './promotion-form';
import { PromotionList } from './promotion-list';

/**
 * Products → gift-with-purchase promotions (`/products/promotions`; spec §3): the store's gift promotions, and a new
 * one — its type, spending type, minimum spend, stackable, order limit, gifts per order, the SKUs that earn the gift
 * (all, or chosen), the gifts and their replacements, for an order period. Pushed where the channel has such
 * promotions; elsewhere kept in Kedai and shown "not on the channel".
 */

type Chosen = Record<string, number>;
const keyOf = (sku: { item_id: string; model_id: string }) => `${sku.item_id}:${sku.model_id}`;
const refsOf = (skus: ChannelSkuRow[], chosen: Chosen) =>
  skus
    .filter((sku) => chosen[keyOf(sku)] !== undefined)
    .map((sku) => ({ item_id: sku.item_id, model_id: sku.model_id, quantity: chosen[keyOf(sku)]! }));

function SkuChecklist({
  legend,
  skus,
  chosen,
  onChange,
  error,
}: {
  legend: string;
  skus: ChannelSkuRow[];
  chosen: Chosen;
  onChange(chosen: Chosen): void;
  error?: string | undefined;
}) {
  return (
    <fieldset className="promotion-skus">
      <legend>{legend}</legend>
      {error && (
        <p className="field-error" role="alert">
          {error}
        </p>
      )}
      {skus.map((sku) => {
        const key = keyOf(sku);
        return (
          <label key={key} className="check-label">
            <input
              type="checkbox"
              checked={chosen[key] !== undefined}
              onChange={(event) => {
                const { [key]: _, ...rest } = chosen;
                onChange(event.target.checked ? { ...chosen, [key]: 1 } : rest);
              }}
            />
            {skuLabel(sku)}
          </label>
        );
      })}
    </fieldset>
  );
}

function GiftForm({ onClose, onSaved }: { onClose(): void; onSaved(): void }) {
  const { t } = useTranslation('promotions');
  const [period, setPeriod] = useState<Period>({ storeId: '', name: '', start: '', end: '' });
  const [giftType, setGiftType] = useState<GiftBody['gift_type']>('order_spend');
  const [spendingType, setSpendingType] = useState<GiftBody['spending_type']>('exclude_total');
  const [minSpend, setMinSpend] = useState('');
  const [stackable, setStackable] = useState(false);
  const [orderLimit, setOrderLimit] = useState('100');
  const [giftsPerOrder, setGiftsPerOrder] = useState('1');
  const [selection, setSelection] = useState<GiftBody['sku_selection']>('all');
  const [main, setMain] = useState<Chosen>({});
  const [gifts, setGifts] = useState<Chosen>({});
  const [replacements, setReplacements] = useState<Chosen>({});
  const skus = useStoreSkus(period.storeId);

  const send = () => ({
    kind: 'gift' as const,
    body: {
      ...periodBody(period),
      gift_type: giftType,
      spending_type: spendingType,
      min_spend: minSpend.trim() || '0',
      stackable,
      order_limit: Number(orderLimit),
      gifts_per_order: Number(giftsPerOrder),
      sku_selection: selection,
      main_skus: refsOf(skus, main).map(({ quantity: _, ...ref }) => ref),
      gifts: refsOf(skus, gifts),
      replacements: refsOf(skus, replacements),
    },
  });

  return (
    <PromotionDialog title={t('gift.new_title')} onClose={onClose} onSaved={onSaved} send={send}>
      {(errors) => (
        <>
          <PeriodFields period={period} onChange={setPeriod} errors={errors} />
          <div className="form-grid">
            <SelectField
              label={t('gift.type')}
              value={giftType}
              onChange={(event) => setGiftType(event.target.value as GiftBody['gift_type'])}
              options={GIFT_TYPES.map((value) => ({ value, label: t(`gift.types.${value}`) }))}
            />
            <SelectField
              label={t('gift.spending_type')}
              value={spendingType}
              onChange={(event) => setSpendingType(event.target.value as GiftBody['spending_type'])}
              options={SPENDING_TYPES.map((value) => ({ value, label: t(`gift.spending.${value}`) }))}
            />
            <TextField
              label={t('gift.min_spend')}
              inputMode="decimal"
              value={minSpend}
              onChange={(event) => setMinSpend(event.target.value)}
              error={errors.min_spend}
            />
            <TextField
              label={t('gift.order_limit')}
              inputMode="numeric"
              value={orderLimit}
              onChange={(event) => setOrderLimit(event.target.value)}
              error={errors.order_limit}
            />
            <TextField
              label={t('gift.gifts_per_order')}
              inputMode="numeric"
              value={giftsPerOrder}
              onChange={(event) => setGiftsPerOrder(event.target.value)}
              error={errors.gifts_per_order}
            />
            <CheckboxField
              label={t('gift.stackable')}
              checked={stackable}
              onChange={(event) => setStackable(event.target.checked)}
            />
            <SelectField
              label={t('gift.sku_selection')}
              value={selection}
              onChange={(event) => setSelection(event.target.value as GiftBody['sku_selection'])}
              options={(['all', 'selected'] as const).map((value) => ({
                value,
                label: t(`gift.selection.${value}`),
              }))}
            />
          </div>
          {period.storeId === '' ? (
            <p className="muted">{t('form.choose_store_first')}</p>
          ) : (
            <>
              {selection === 'selected' && (
                <SkuChecklist
                  legend={t('gift.main_skus')}
                  skus={skus}
                  chosen={main}
                  onChange={setMain}
                  error={errors.main_skus}
                />
              )}
              <SkuChecklist
                legend={t('gift.gifts')}
                skus={skus}
                chosen={gifts}
                onChange={setGifts}
                error={errors.gifts}
              />
              <SkuChecklist
                legend={t('gift.replacements')}
                skus={skus}
                chosen={replacements}
                onChange={setReplacements}
              />
            </>
          )}
        </>
      )}
    </PromotionDialog>
  );
}

export default function GiftPromotionsPage() {
  return <PromotionList kind="gift" form={(props) => <GiftForm {...props} />} />;
}
