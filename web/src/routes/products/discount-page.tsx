import type { DiscountBody } from '@web/api/promotions';
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
 * Products → discount promotion (`/products/shopee-discount`): the store's discount promotions, and a new one —
 * the store's SKUs to choose, each with its promo price (or a discount in percent), a purchase limit and the
 * promo stock (not above what the SKU may sell).
 */

interface Line {
  promoPrice: string;
  discount: string;
  purchaseLimit: string;
  promoStock: string;
}

const blank: Line = { promoPrice: '', discount: '', purchaseLimit: '0', promoStock: '' };
const wholeOrNull = (text: string) => (text.trim() === '' ? null : Number(text));

function DiscountForm({ onClose, onSaved }: { onClose(): void; onSaved(): void }) {
  const { t } = useTranslation('promotions');
  const [period, setPeriod] = useState<Period>({ storeId: '', name: '', start: '', end: '' });
  const [lines, setLines] = useState<Record<string, Line>>({});
  const skus = useStoreSkus(period.storeId);
  const keyOf = (sku: { item_id: string; model_id: string }) => `${sku.item_id}:${sku.model_id}`;
  const setLine = (key: string, change: Partial<Line>) =>
    setLines((current) => ({ ...current, [key]: { ...(current[key] ?? blank), ...change } }));

  const send = () => {
    const items: DiscountBody['items'] = skus
      .filter((sku) => lines[keyOf(sku)])
      .map((sku) => {
        const line = lines[keyOf(sku)]!;
        return {
          item_id: sku.item_id,
          model_id: sku.model_id,
          ...(line.promoPrice.trim() ? { promo_price: line.promoPrice.trim() } : {}),
          ...(!line.promoPrice.trim() && line.discount.trim() ? { discount: Number(line.discount) } : {}),
          purchase_limit: Number(line.purchaseLimit || 0),
          promo_stock: wholeOrNull(line.promoStock),
        };
      });
    return { kind: 'discount' as const, body: { ...periodBody(period), items } };
  };

  return (
    <PromotionDialog title={t('discount.new_title')} onClose={onClose} onSaved={onSaved} send={send}>
      {(errors) => (
        <>
          <PeriodFields
            period={period}
            onChange={(next) => {
              if (next.storeId !== period.storeId) setLines({});
              setPeriod(next);
            }}
            errors={errors}
          />
          <fieldset className="promotion-skus">
            <legend>{t('discount.skus')}</legend>
            {errors.items && <FormError text={errors.items} />}
            {period.storeId === '' ? (
              <p className="muted">{t('form.choose_store_first')}</p>
            ) : skus.length === 0 ? (
              <p className="muted">{t('form.no_skus')}</p>
            ) : (
              <table className="table">
                <thead>
                  <tr>
                    <th scope="col">{t('discount.columns.sku')}</th>
                    <th scope="col">{t('discount.columns.price')}</th>
                    <th scope="col">{t('discount.columns.available')}</th>
                    <th scope="col">{t('discount.columns.promo_price')}</th>
                    <th scope="col">{t('discount.columns.discount')}</th>
                    <th scope="col">{t('discount.columns.purchase_limit')}</th>
                    <th scope="col">{t('discount.columns.promo_stock')}</th>
                  </tr>
                </thead>
                <tbody>
                  {skus.map((sku) => {
                    const key = keyOf(sku);
                    const line = lines[key];
                    const label = skuLabel(sku);
                    return (
                      <tr key={key}>
                        <td>
                          <label className="check-label">
                            <input
                              type="checkbox"
                              checked={line !== undefined}
                              onChange={(event) =>
                                event.target.checked
                                  ? setLine(key, {})
                                  : setLines(({ [key]: _, ...rest }) => rest)
                              }
                            />
                            {label}
                          </label>
                        </td>
                        <td>{sku.price}</td>
                        <td>{sku.available}</td>
                        {(['promoPrice', 'discount', 'purchaseLimit', 'promoStock'] as const).map((field) => (
                          <td key={field}>
                            <input
                              className="input input-small"
                              inputMode="decimal"
                              disabled={line === undefined}
                              aria-label={t(`discount.aria.${field}`, { sku: sku.seller_sku })}
                              value={line?.[field] ?? ''}
                              onChange={(event) => setLine(key, { [field]: event.target.value })}
                            />
                          </td>
                        ))}
                      </tr>
                    );
                  })}
                </tbody>
              </table>
            )}
          </fieldset>
        </>
      )}
    </PromotionDialog>
  );
}

function FormError({ text }: { text: string }) {
  return (
    <p className="field-error" role="alert">
      {text}
    </p>
  );
}

export default function DiscountPage() {
  return <PromotionList kind="discount" form={(props) => <DiscountForm {...props} />} />;
}
