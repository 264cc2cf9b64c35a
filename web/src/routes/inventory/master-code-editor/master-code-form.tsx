import { TEXT_LIMITS } from '@domain/shared/limits';
import { ApiFailure } from '@web/api/client';
import { useCreateCombo } from '@web/api/combos';
import { useBrands, useInventoryCategories, useUnits } from '@web/api/inventory-catalogue';
import {
  type MasterCodeDetail,
  type MasterCodeFields,
  type MasterCodeStatus,
  type MasterCodeType,
  PRICE_CURRENCIES,
  type PriceCurrency,
  useClassifications,
  useCreateMasterCode,
  useUpdateMasterCode,
} from '@web/api/master-codes';
import { useSession } from '@web/auth/session';
import { FormMessage, messageOf, SelectField, TextAreaField, TextField } from '@web/shell/form';
import { useNotify } from '@web/shell/notifications';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import {
  ComboItemsEditor,
  checkItems,
  type ItemDraft,
  itemErrorsOf,
  itemsInput,
} from '../components/combo-items-editor';
import { categoryOptions, isDecimal, isWholeNumber } from '../components/fields';
import { MasterCodeImageField } from './image-field';

/**
 * Every field of a master code (spec §3): code, name, type (fixed once created), category, brand, unit, image, unit
 * price, cost, weight, seller SKU, UPC, e-invoice classification, remark, status, soft threshold, initial quantity (a
 * new standard one only: the stock side turns it into the first stock received), POS app name and the price list per
 * currency. A new combo takes its items here too. The API's refusals show above the form, its field messages under
 * their fields (a price list entry under its currency).
 */

const CODE_PATTERN = /^[\x20-\x7e]+$/;

type Field =
  | 'code'
  | 'name'
  | 'type'
  | 'status'
  | 'category_id'
  | 'brand_id'
  | 'unit_id'
  | 'image_url'
  | 'image_id'
  | 'unit_price'
  | 'cost'
  | 'weight_kg'
  | 'seller_sku'
  | 'upc'
  | 'einvoice_classification'
  | 'remark'
  | 'soft_threshold'
  | 'initial_quantity'
  | 'pos_app_name';

type Values = Record<Field, string> & { prices: Record<PriceCurrency, string> };
/** Field messages; a price list entry's under `price.<currency>`. */
type Errors = Partial<Record<Field | `price.${PriceCurrency}`, string>>;

function initialValues(detail: MasterCodeDetail | null, type: MasterCodeType): Values {
  const prices = Object.fromEntries(
    PRICE_CURRENCIES.map((currency) => [
      currency,
      detail?.prices.find((price) => price.currency === currency)?.unit_price ?? '',
    ]),
  ) as Record<PriceCurrency, string>;
  return {
    code: detail?.code ?? '',
    name: detail?.name ?? '',
    type: detail?.type ?? type,
    status: detail?.status ?? 'active',
    category_id: detail?.category?.id ?? '',
    brand_id: detail?.brand?.id ?? '',
    unit_id: detail?.unit?.id ?? '',
    image_url: detail?.image_url ?? '',
    image_id: detail?.image_id ?? '',
    unit_price: detail?.unit_price ?? '0.00',
    cost: detail?.cost ?? '0.00',
    weight_kg: detail?.weight_kg ?? '0.000',
    seller_sku: detail?.seller_sku ?? '',
    upc: detail?.upc ?? '',
    einvoice_classification: detail?.einvoice_classification ?? '',
    remark: detail?.remark ?? '',
    soft_threshold: String(detail?.soft_threshold ?? 0),
    initial_quantity: '0',
    pos_app_name: detail?.pos_app_name ?? '',
    prices,
  };
}

const isWebAddress = (text: string) => {
  try {
    const url = new URL(text);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
};

/** The API's field messages: `body/<field>`, `body/prices/<index>/…` (by the currency sent at that index). */
function serverErrors(error: unknown, sentPrices: readonly { currency: PriceCurrency }[]): Errors {
  if (!(error instanceof ApiFailure) || !error.errors) return {};
  const found: Errors = {};
  for (const issue of error.errors) {
    const [, field, index] = issue.path.split('/').filter(Boolean);
    if (!field || field === 'items') continue;
    const key =
      field === 'prices'
        ? sentPrices[Number(index)]
          ? (`price.${sentPrices[Number(index)]!.currency}` as const)
          : undefined
        : (field as Field);
    if (key && !found[key]) found[key] = issue.message;
  }
  return found;
}

export function MasterCodeForm({
  detail,
  newType = 'standard',
  typeFixed = false,
  cancelTo,
  onCreated,
  onSaved,
}: {
  /** null: a new master code. */
  detail: MasterCodeDetail | null;
  /** A new one's type to start with. */
  newType?: MasterCodeType;
  /** The new one's type cannot be chosen (the combo list's "add combo"). */
  typeFixed?: boolean;
  cancelTo: string;
  onCreated(created: MasterCodeDetail): void;
  onSaved(saved: MasterCodeDetail): void;
}) {
  const { t } = useTranslation('inventory');
  const notify = useNotify();
  const { can } = useSession();
  const categories = useInventoryCategories();
  const brands = useBrands();
  const units = useUnits();
  const classifications = useClassifications();
  const create = useCreateMasterCode();
  const createCombo = useCreateCombo();
  const update = useUpdateMasterCode();
  const [values, setValues] = useState<Values>(() => initialValues(detail, newType));
  const [items, setItems] = useState<ItemDraft[]>([]);
  const [errors, setErrors] = useState<Errors>({});
  const [itemErrors, setItemErrors] = useState<Record<number, string>>({});
  const [itemsError, setItemsError] = useState<string | undefined>();
  const [failure, setFailure] = useState<string | null>(null);
  const editing = detail !== null;
  const busy = create.isPending || createCombo.isPending || update.isPending;
  const isCombo = values.type === 'combo';
  /** A new combo takes its items at once when the user may edit combos; otherwise it starts empty. */
  const withItems = !editing && isCombo && can('inventory-combo-list');

  const set = (field: Field) => (event: { target: { value: string } }) => {
    const value = event.target.value;
    setValues((current) => ({ ...current, [field]: value }));
    setErrors((current) => ({ ...current, [field]: undefined }));
  };
  /** The picture is an upload or an address, never both: choosing one drops the other. */
  const setImage = (image: { image_id: string } | { image_url: string }) => {
    setValues((current) =>
      'image_id' in image
        ? { ...current, image_id: image.image_id, image_url: image.image_id ? '' : current.image_url }
        : {
            ...current,
            image_url: image.image_url,
            image_id: image.image_url.trim() ? '' : current.image_id,
          },
    );
    setErrors((current) => ({ ...current, image_id: undefined, image_url: undefined }));
  };
  const setPrice = (currency: PriceCurrency) => (event: { target: { value: string } }) => {
    const value = event.target.value;
    setValues((current) => ({ ...current, prices: { ...current.prices, [currency]: value } }));
    setErrors((current) => ({ ...current, [`price.${currency}`]: undefined }));
  };

  function check(): Errors {
    const found: Errors = {};
    const code = values.code.trim();
    if (!code) found.code = t('master_code.errors.code_required');
    else if (!CODE_PATTERN.test(code)) found.code = t('master_code.errors.code_invalid');
    if (!values.name.trim()) found.name = t('master_code.errors.name_required');
    const image = values.image_url.trim();
    if (image && !isWebAddress(image)) found.image_url = t('master_code.errors.image_url');
    if (!isDecimal(values.unit_price || '0', 12, 2)) found.unit_price = t('master_code.errors.money');
    if (!isDecimal(values.cost || '0', 12, 2)) found.cost = t('master_code.errors.money');
    if (!isDecimal(values.weight_kg || '0', 7, 3)) found.weight_kg = t('master_code.errors.weight');
    if (!/^\d{0,14}$/.test(values.upc.trim())) found.upc = t('master_code.errors.upc');
    if (!isWholeNumber(values.soft_threshold || '0')) found.soft_threshold = t('master_code.errors.whole');
    if (!editing && !isCombo && !isWholeNumber(values.initial_quantity || '0'))
      found.initial_quantity = t('master_code.errors.whole');
    for (const currency of PRICE_CURRENCIES) {
      const price = values.prices[currency].trim();
      if (price && (!isDecimal(price, 12, 2) || Number(price) === 0))
        found[`price.${currency}`] = t('master_code.errors.list_price');
    }
    return found;
  }

  function fields(): MasterCodeFields {
    const orNull = (text: string) => text.trim() || null;
    return {
      code: values.code.trim(),
      name: values.name.trim(),
      category_id: orNull(values.category_id),
      brand_id: orNull(values.brand_id),
      unit_id: orNull(values.unit_id),
      image_url: orNull(values.image_url),
      image_id: orNull(values.image_id),
      unit_price: values.unit_price.trim() || '0',
      cost: values.cost.trim() || '0',
      weight_kg: values.weight_kg.trim() || '0',
      seller_sku: values.seller_sku.trim(),
      upc: values.upc.trim(),
      einvoice_classification: orNull(values.einvoice_classification),
      remark: values.remark.trim(),
      status: values.status as MasterCodeStatus,
      soft_threshold: Number(values.soft_threshold.trim() || '0'),
      pos_app_name: values.pos_app_name.trim(),
      prices: PRICE_CURRENCIES.filter((currency) => values.prices[currency].trim() !== '').map(
        (currency) => ({
          currency,
          unit_price: values.prices[currency].trim(),
        }),
      ),
    };
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    setFailure(null);
    const found = check();
    const itemCheck = withItems ? checkItems(items, t) : { quantities: {} };
    setErrors(found);
    setItemErrors(itemCheck.quantities);
    setItemsError(itemCheck.list);
    if (
      Object.values(found).some(Boolean) ||
      itemCheck.list ||
      Object.keys(itemCheck.quantities).length > 0
    ) {
      setFailure(t('form.check_fields'));
      return;
    }
    const body = fields();
    try {
      if (detail) {
        const answer = await update.mutateAsync({ id: detail.id, changes: body });
        notify({ kind: 'success', message: answer.msg });
        onSaved(answer.data);
      } else if (withItems) {
        const answer = await createCombo.mutateAsync({ ...body, items: itemsInput(items) });
        notify({ kind: 'success', message: answer.msg });
        onCreated(answer.data);
      } else {
        const answer = await create.mutateAsync({
          ...body,
          type: values.type as MasterCodeType,
          initial_quantity: isCombo ? 0 : Number(values.initial_quantity.trim() || '0'),
        });
        notify({ kind: 'success', message: answer.msg });
        onCreated(answer.data);
      }
    } catch (error) {
      setFailure(messageOf(error));
      setErrors(serverErrors(error, body.prices));
      setItemErrors(itemErrorsOf(error));
    }
  }

  const none = t('master_code.none');
  const options = {
    categories: categoryOptions(categories.data ?? []),
    brands: (brands.data ?? []).map((brand) => ({ value: brand.id, label: brand.name })),
    units: (units.data ?? []).map((unit) => ({ value: unit.id, label: unit.name })),
    classifications: (classifications.data ?? []).map((row) => ({
      value: row.code,
      label: `${row.code} – ${row.description}`,
    })),
  };

  return (
    <form
      className="form card master-code-form"
      onSubmit={submit}
      noValidate
      aria-label={t('master_code.form_label')}
    >
      {failure && <FormMessage kind="error">{failure}</FormMessage>}

      <fieldset className="form-section">
        <legend>{t('master_code.sections.basics')}</legend>
        <div className="form-grid">
          <TextField
            label={t('master_code.fields.code')}
            value={values.code}
            onChange={set('code')}
            error={errors.code}
            limit={TEXT_LIMITS.code}
            autoComplete="off"
            disabled={detail?.bound}
            hint={detail?.bound ? t('master_code.hints.code_bound') : t('master_code.hints.code')}
            required
          />
          <TextField
            label={t('master_code.fields.name')}
            value={values.name}
            onChange={set('name')}
            error={errors.name}
            limit={TEXT_LIMITS.name}
            required
          />
          <SelectField
            label={t('master_code.fields.type')}
            value={values.type}
            onChange={set('type')}
            error={errors.type}
            options={[
              { value: 'standard', label: t('type.standard') },
              { value: 'combo', label: t('type.combo') },
            ]}
            disabled={editing || typeFixed}
            hint={editing ? t('master_code.hints.type_fixed') : t('master_code.hints.type')}
            required
          />
          <SelectField
            label={t('master_code.fields.status')}
            value={values.status}
            onChange={set('status')}
            error={errors.status}
            options={[
              { value: 'active', label: t('status.active') },
              { value: 'inactive', label: t('status.inactive') },
            ]}
            required
          />
          <SelectField
            label={t('master_code.fields.category')}
            value={values.category_id}
            onChange={set('category_id')}
            error={errors.category_id}
            options={options.categories}
            placeholder={none}
          />
          <SelectField
            label={t('master_code.fields.brand')}
            value={values.brand_id}
            onChange={set('brand_id')}
            error={errors.brand_id}
            options={options.brands}
            placeholder={none}
          />
          <SelectField
            label={t('master_code.fields.unit')}
            value={values.unit_id}
            onChange={set('unit_id')}
            error={errors.unit_id}
            options={options.units}
            placeholder={none}
          />
          <TextField
            label={t('master_code.fields.image_url')}
            type="url"
            value={values.image_url}
            onChange={(event) => setImage({ image_url: event.target.value })}
            error={errors.image_url}
            limit={TEXT_LIMITS.url}
            placeholder="https://"
          />
        </div>
        <MasterCodeImageField
          imageId={values.image_id}
          imageUrl={isWebAddress(values.image_url.trim()) ? values.image_url.trim() : null}
          name={values.name || values.code}
          error={errors.image_id}
          onUploaded={(imageId) => setImage({ image_id: imageId })}
          onRemove={() => setImage({ image_id: '' })}
        />
      </fieldset>

      <fieldset className="form-section">
        <legend>{t('master_code.sections.pricing')}</legend>
        <div className="form-grid">
          <TextField
            label={t('master_code.fields.unit_price')}
            inputMode="decimal"
            value={values.unit_price}
            onChange={set('unit_price')}
            error={errors.unit_price}
          />
          <TextField
            label={t('master_code.fields.cost')}
            inputMode="decimal"
            value={values.cost}
            onChange={set('cost')}
            error={errors.cost}
          />
          <TextField
            label={t('master_code.fields.weight_kg')}
            inputMode="decimal"
            value={values.weight_kg}
            onChange={set('weight_kg')}
            error={errors.weight_kg}
          />
          <TextField
            label={t('master_code.fields.soft_threshold')}
            inputMode="numeric"
            value={values.soft_threshold}
            onChange={set('soft_threshold')}
            error={errors.soft_threshold}
            hint={t('master_code.hints.soft_threshold')}
          />
          {!editing && !isCombo && (
            <TextField
              label={t('master_code.fields.initial_quantity')}
              inputMode="numeric"
              value={values.initial_quantity}
              onChange={set('initial_quantity')}
              error={errors.initial_quantity}
              hint={t('master_code.hints.initial_quantity')}
            />
          )}
          {editing && detail.type === 'standard' && (
            <div className="field">
              <span className="field-label">{t('master_code.fields.initial_quantity')}</span>
              <span className="read-only-value">{detail.initial_quantity}</span>
            </div>
          )}
        </div>
      </fieldset>

      <fieldset className="form-section">
        <legend>{t('master_code.sections.price_list')}</legend>
        <p className="muted field-hint">{t('master_code.hints.price_list')}</p>
        <div className="form-grid price-list">
          {PRICE_CURRENCIES.map((currency) => (
            <TextField
              key={currency}
              label={t('master_code.fields.price_in', { currency })}
              inputMode="decimal"
              value={values.prices[currency]}
              onChange={setPrice(currency)}
              error={errors[`price.${currency}`]}
            />
          ))}
        </div>
      </fieldset>

      <fieldset className="form-section">
        <legend>{t('master_code.sections.identifiers')}</legend>
        <div className="form-grid">
          <TextField
            label={t('master_code.fields.seller_sku')}
            value={values.seller_sku}
            onChange={set('seller_sku')}
            error={errors.seller_sku}
            limit={TEXT_LIMITS.code}
          />
          <TextField
            label={t('master_code.fields.upc')}
            inputMode="numeric"
            value={values.upc}
            onChange={set('upc')}
            error={errors.upc}
          />
          <SelectField
            label={t('master_code.fields.einvoice_classification')}
            value={values.einvoice_classification}
            onChange={set('einvoice_classification')}
            error={errors.einvoice_classification}
            options={options.classifications}
            placeholder={none}
          />
          <TextField
            label={t('master_code.fields.pos_app_name')}
            value={values.pos_app_name}
            onChange={set('pos_app_name')}
            error={errors.pos_app_name}
            limit={TEXT_LIMITS.name}
            hint={t('master_code.hints.pos_app_name')}
          />
        </div>
        <TextAreaField
          label={t('master_code.fields.remark')}
          value={values.remark}
          onChange={set('remark')}
          error={errors.remark}
          limit={TEXT_LIMITS.note}
        />
      </fieldset>

      {withItems && (
        <ComboItemsEditor
          items={items}
          onChange={(next) => {
            setItems(next);
            setItemErrors({});
            setItemsError(undefined);
          }}
          errors={itemErrors}
          listError={itemsError}
        />
      )}
      {!editing && isCombo && !withItems && (
        <p className="muted">{t('master_code.hints.combo_items_later')}</p>
      )}

      <div className="form-actions">
        <Link to={cancelTo} className="button">
          {t('actions.cancel')}
        </Link>
        <button type="submit" className="button button-primary" disabled={busy}>
          {editing ? t('actions.save') : isCombo ? t('combo.create') : t('master_code.create')}
        </button>
      </div>
    </form>
  );
}
