import { LISTINGS_VIEW } from '@domain/shared/live-views';
import { ApiFailure } from '@web/api/client';
import {
  CONTROL_KEY,
  checkSkus,
  LISTING_LIMITS,
  type ListingBody,
  type ListingDetail,
  MANAGE_KEY,
  NO_GTIN,
  type PublicationAction,
  uploadListingImage,
  useListing,
  useListingImageUrl,
  useListingMasterCodes,
  useListingStores,
  usePublication,
  useSaveListing,
} from '@web/api/listings';
import { useLiveRecord } from '@web/api/live';
import { useSession } from '@web/auth/session';
import { ConfirmDialog } from '@web/components/modal-dialog';
import {
  FormMessage,
  fieldErrorsOf,
  messageOf,
  SelectField,
  TextAreaField,
  TextField,
} from '@web/shell/form';
import { useNotify } from '@web/shell/notifications';
import { PageHeader } from '@web/shell/page';
import { useDebounced } from '@web/shell/use-debounced';
import { type FormEvent, useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router-dom';
import { type AttributeInput, CategoryPicker } from './category-picker';
import { storeState } from './list-page';
import './products.css';
import '@web/routes/management.css';

/**
 * Products → listing editor (spec §2): the listing's stores (1 to 20), name, brand, model, category, description,
 * condition, package, logistics, images (uploaded to Kedai or by https address), GTIN, up to two variant tiers and a
 * SKU row per combination (seller SKU, price, stock, master code). Saving first checks the seller SKUs (in a store,
 * in another listing, repeated) and warns with "continue anyway"; the server's questions (§5: a master code already
 * listed, a Shopee tier change unlinking master codes, sync before edit) are asked and the save sent again once the
 * person agrees. Each store's publish, sync and unlist show their progress live.
 */

type Image = { id: string } | { url: string };
interface Row {
  seller_sku: string;
  price: string;
  stock: string;
  master_code: { id: string; code: string | null } | null;
}
interface Tier {
  /** The tier's key in the form while it is edited. */
  key: string;
  name: string;
  options: string;
}

const optionsOf = (tier: Tier) =>
  tier.options
    .split(',')
    .map((option) => option.trim())
    .filter(Boolean);

/** Every combination of the tiers' options, as tier indexes ([[]] without tiers). */
function combinations(tiers: string[][]): number[][] {
  return tiers.reduce<number[][]>(
    (rows, options) => rows.flatMap((row) => options.map((_, i) => [...row, i])),
    [[]],
  );
}

/** A saved listing's SKU rows as the form holds them, by tier index. */
const rowsOf = (saved: ListingDetail): Record<string, Row> =>
  Object.fromEntries(
    saved.skus.map((sku) => [
      sku.tier_index.join('.'),
      {
        seller_sku: sku.seller_sku,
        price: sku.price,
        stock: String(sku.stock),
        master_code: sku.master_code,
      },
    ]),
  );

/** The server's questions, by result code, and the flag that answers yes (spec §5). */
const QUESTIONS: Record<
  number,
  keyof Pick<ListingBody, 'confirm_listed_master_codes' | 'confirm_unlink_master_codes' | 'skip_sync'>
> = {
  714: 'confirm_unlink_master_codes',
  715: 'skip_sync',
  716: 'confirm_listed_master_codes',
};

function ImageThumb({ image, onRemove, label }: { image: Image; onRemove(): void; label: string }) {
  const uploaded = useListingImageUrl('id' in image ? image.id : null);
  const src = 'id' in image ? uploaded.data : image.url;
  return (
    <span>
      {src && <img className="listing-image" src={src} alt="" />}
      <button type="button" className="button button-link" onClick={onRemove}>
        {label}
      </button>
    </span>
  );
}

function MasterCodeInput({
  value,
  onChange,
  label,
}: {
  value: Row['master_code'];
  onChange(value: Row['master_code']): void;
  label: string;
}) {
  const listId = useId();
  const [text, setText] = useState(value?.code ?? '');
  const search = useDebounced(text.trim());
  const options = useListingMasterCodes(search);
  useEffect(() => setText(value?.code ?? ''), [value?.code]);
  return (
    <>
      <input
        className="input"
        aria-label={label}
        list={listId}
        value={text}
        onChange={(event) => {
          setText(event.target.value);
          const found = options.data?.find((option) => option.code === event.target.value);
          onChange(found ? { id: found.id, code: found.code } : null);
        }}
      />
      <datalist id={listId}>
        {options.data?.map((option) => (
          <option key={option.id} value={option.code}>
            {option.name}
          </option>
        ))}
      </datalist>
    </>
  );
}

function Publications({ listing }: { listing: ListingDetail }) {
  const { t } = useTranslation('listings');
  const { can } = useSession();
  const notify = useNotify();
  const run = usePublication(listing.id);
  async function act(action: PublicationAction, storeId: string) {
    try {
      const answer = await run.mutateAsync({ action, storeIds: [storeId] });
      notify({ kind: 'success', message: answer.msg });
    } catch (error) {
      notify({ kind: 'error', message: messageOf(error) });
    }
  }
  const allowed = (action: PublicationAction) => can(action === 'unlist' ? CONTROL_KEY : MANAGE_KEY);
  return (
    <section className="card listing-section" aria-label={t('editor.publications')}>
      <h2>{t('editor.publications')}</h2>
      <table className="listing-grid-table">
        <thead>
          <tr>
            <th>{t('editor.store')}</th>
            <th>{t('editor.state')}</th>
            <th>{t('editor.item_id')}</th>
            <th>{t('editor.actions')}</th>
          </tr>
        </thead>
        <tbody>
          {listing.stores.map((store) => (
            <tr key={store.store_id} data-testid={`publication-${store.store_id}`}>
              <td>{store.store_name ?? store.store_id}</td>
              <td>
                {t(`store_state.${storeState(store)}`)}
                {store.step && store.running && ` (${t(`step.${store.step}`)})`}
                {store.error && <div className="field-error">{store.error}</div>}
                {store.item_left && (
                  <div className="field-error">{t('editor.item_left', { item: store.item_left })}</div>
                )}
              </td>
              <td>{store.item_id ?? '—'}</td>
              <td>
                {store.actions.filter(allowed).map((action) => (
                  <button
                    key={action}
                    type="button"
                    className="button button-secondary"
                    disabled={run.isPending}
                    onClick={() => act(action, store.store_id)}
                  >
                    {t(`action.${action}`)}
                  </button>
                ))}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

export default function ListingEditorPage() {
  const { id = '' } = useParams();
  const { t } = useTranslation('listings');
  const { can } = useSession();
  const notify = useNotify();
  const listing = useListing(id);
  const stores = useListingStores();
  const save = useSaveListing(id);
  useLiveRecord(LISTINGS_VIEW, id, listing.refetch);
  const [loaded, setLoaded] = useState(false);
  const [storeIds, setStoreIds] = useState<string[]>([]);
  const [fields, setFields] = useState({
    product_name: '',
    brand: '',
    model: '',
    category_id: '',
    description: '',
    condition: 'new' as 'new' | 'used',
    package_length: '0',
    package_width: '0',
    package_height: '0',
    package_weight: '0',
    logistics: '',
    gtin: NO_GTIN,
  });
  const [attributes, setAttributes] = useState<Record<string, AttributeInput>>({});
  const [brandId, setBrandId] = useState('');
  const [images, setImages] = useState<Image[]>([]);
  const [imageUrl, setImageUrl] = useState('');
  const [tiers, setTiers] = useState<Tier[]>([]);
  const [rows, setRows] = useState<Record<string, Row>>({});
  const [error, setError] = useState<string | null>(null);
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const [question, setQuestion] = useState<{ message: string; answer: Partial<ListingBody> } | null>(null);
  const [answers, setAnswers] = useState<Partial<ListingBody>>({});

  // The saved listing fills the form once; a live refresh afterwards updates the publications only.
  useEffect(() => {
    if (loaded || listing.data === undefined) return;
    setLoaded(true);
    const saved = listing.data;
    if (!saved) return;
    setStoreIds(saved.store_ids);
    setFields({
      product_name: saved.product_name,
      brand: saved.brand,
      model: saved.model,
      category_id: saved.category_id,
      description: saved.description,
      condition: saved.condition,
      package_length: String(saved.package_length),
      package_width: String(saved.package_width),
      package_height: String(saved.package_height),
      package_weight: String(saved.package_weight),
      logistics: saved.logistics.join(', '),
      gtin: saved.gtin,
    });
    setBrandId(saved.brand_id ?? '');
    setAttributes(
      Object.fromEntries(
        saved.attributes.flatMap((attribute) =>
          attribute.values[0] ? [[attribute.attribute_id, attribute.values[0]]] : [],
        ),
      ),
    );
    setImages(saved.images);
    setTiers(
      saved.tiers.map((tier) => ({
        key: crypto.randomUUID(),
        name: tier.name,
        options: tier.options.join(', '),
      })),
    );
    setRows(rowsOf(saved));
  }, [loaded, listing.data]);

  const tierOptions = tiers.map(optionsOf);
  const combos = combinations(tierOptions);
  const rowOf = (index: number[]): Row =>
    rows[index.join('.')] ?? { seller_sku: '', price: '', stock: '0', master_code: null };
  const setRow = (index: number[], change: Partial<Row>) =>
    setRows((current) => ({ ...current, [index.join('.')]: { ...rowOf(index), ...change } }));
  const set = (name: keyof typeof fields) => (event: { target: { value: string } }) =>
    setFields((current) => ({ ...current, [name]: event.target.value }));

  function body(extra: Partial<ListingBody>): ListingBody {
    return {
      platform: 'shopee',
      store_ids: storeIds,
      product_name: fields.product_name,
      brand: fields.brand,
      ...(brandId ? { brand_id: brandId } : {}),
      model: fields.model,
      category_id: fields.category_id,
      attributes: Object.entries(attributes)
        .filter(([, value]) => value.value_id || value.name.trim())
        .map(([attributeId, value]) => ({ attribute_id: attributeId, values: [value] })),
      description: fields.description,
      condition: fields.condition,
      package_length: Number(fields.package_length) || 0,
      package_width: Number(fields.package_width) || 0,
      package_height: Number(fields.package_height) || 0,
      package_weight: Number(fields.package_weight) || 0,
      logistics: fields.logistics
        .split(',')
        .map((value) => value.trim())
        .filter(Boolean),
      images,
      gtin: fields.gtin,
      tiers: tiers.map((tier) => ({ name: tier.name, options: optionsOf(tier) })),
      skus: combos.map((index) => {
        const row = rowOf(index);
        return {
          seller_sku: row.seller_sku,
          price: row.price,
          stock: Number(row.stock) || 0,
          tier_index: index,
          master_code_id: row.master_code?.id ?? null,
        };
      }),
      ...(listing.data ? { revision: listing.data.revision } : {}),
      ...extra,
    };
  }

  async function send(extra: Partial<ListingBody>) {
    try {
      const answer = await save.mutateAsync(body(extra));
      // The rows as saved: a Shopee tier change took the master codes off, and the form must not still show them.
      setRows(rowsOf(answer.data));
      setAnswers({});
      notify({ kind: 'success', message: answer.msg });
    } catch (failure) {
      const flag = failure instanceof ApiFailure ? QUESTIONS[failure.code] : undefined;
      if (flag) {
        setQuestion({
          message: failure instanceof ApiFailure ? failure.msg : '',
          answer: { ...extra, [flag]: true },
        });
        return;
      }
      setError(messageOf(failure));
      setFieldErrors(fieldErrorsOf(failure));
    }
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (save.isPending) return;
    setError(null);
    setFieldErrors({});
    const skus = combos.map((index) => rowOf(index).seller_sku.trim()).filter(Boolean);
    if (skus.length > 0) {
      const found = await checkSkus({ skus, group_id: id }).catch(() => null);
      const existing = found ? [...found.exist_in_store, ...found.exist_in_variant] : [];
      if (found && (existing.length > 0 || found.have_duplicate)) {
        const list = [...new Set(existing)].join(', ');
        setQuestion({
          message: found.have_duplicate
            ? t('editor.sku_duplicate', { skus: list })
            : t('editor.sku_exists', { skus: list }),
          answer: answers,
        });
        return;
      }
    }
    await send(answers);
  }

  async function upload(files: FileList | null) {
    for (const file of files ? [...files] : []) {
      try {
        const answer = await uploadListingImage(file);
        setImages((current) => [...current, { id: answer.data.id }]);
      } catch (failure) {
        notify({ kind: 'error', message: messageOf(failure) });
      }
    }
  }

  const editable = can(MANAGE_KEY) && listing.data?.status !== 'deleted';
  const label = (key: string) => t(`editor.fields.${key}`);
  return (
    <div className="page listing-page">
      <PageHeader
        title={listing.data ? listing.data.product_name : t('editor.new_title')}
        intro={t('editor.intro')}
      >
        <Link className="button button-secondary" to="/products/listings">
          {t('editor.back')}
        </Link>
      </PageHeader>
      {listing.data && <Publications listing={listing.data} />}
      <form onSubmit={submit} noValidate aria-label={t('editor.form_label')}>
        {error && <FormMessage kind="error">{error}</FormMessage>}
        <fieldset className="card listing-section" disabled={!editable}>
          <legend>{label('stores')}</legend>
          {fieldErrors.store_ids && <p className="field-error">{fieldErrors.store_ids}</p>}
          {stores.data?.map((store) => (
            <label key={store.id} className="check-label">
              <input
                type="checkbox"
                checked={storeIds.includes(store.id)}
                onChange={(event) =>
                  setStoreIds((current) =>
                    event.target.checked ? [...current, store.id] : current.filter((one) => one !== store.id),
                  )
                }
              />
              {store.name}
            </label>
          ))}
          {stores.data?.length === 0 && <p className="muted">{t('editor.no_stores')}</p>}
        </fieldset>
        <fieldset className="card listing-section form-grid" disabled={!editable}>
          <legend>{t('editor.product')}</legend>
          <TextField
            label={label('product_name')}
            required
            limit={LISTING_LIMITS.title}
            value={fields.product_name}
            onChange={set('product_name')}
            error={fieldErrors.product_name}
          />
          <TextField
            label={label('brand')}
            limit={LISTING_LIMITS.brand}
            value={fields.brand}
            onChange={set('brand')}
          />
          <TextField
            label={label('model')}
            limit={LISTING_LIMITS.model}
            value={fields.model}
            onChange={set('model')}
          />
          <CategoryPicker
            storeId={storeIds[0] ?? null}
            categoryId={fields.category_id}
            onCategory={(categoryId) => {
              // Another category asks for other attributes and brands.
              setFields((current) => ({ ...current, category_id: categoryId }));
              setAttributes({});
              setBrandId('');
            }}
            attributes={attributes}
            onAttribute={(attributeId, value) =>
              setAttributes((current) => ({ ...current, [attributeId]: value }))
            }
            brandId={brandId}
            onBrand={(brand) => {
              setBrandId(brand.id);
              setFields((current) => ({ ...current, brand: brand.name }));
            }}
            errors={fieldErrors}
          />
          <SelectField
            label={label('condition')}
            value={fields.condition}
            onChange={set('condition')}
            options={[
              { value: 'new', label: t('condition.new') },
              { value: 'used', label: t('condition.used') },
            ]}
          />
          <TextField
            label={label('gtin')}
            hint={t('editor.gtin_hint')}
            value={fields.gtin}
            onChange={set('gtin')}
          />
          <TextAreaField
            label={label('description')}
            limit={LISTING_LIMITS.description}
            value={fields.description}
            onChange={set('description')}
          />
          {(['package_length', 'package_width', 'package_height'] as const).map((name) => (
            <TextField
              key={name}
              label={label(name)}
              type="number"
              min={0}
              value={fields[name]}
              onChange={set(name)}
            />
          ))}
          <TextField
            label={label('package_weight')}
            type="number"
            min={0}
            step="0.01"
            value={fields.package_weight}
            onChange={set('package_weight')}
          />
          <TextField
            label={label('logistics')}
            required
            hint={t('editor.logistics_hint')}
            value={fields.logistics}
            onChange={set('logistics')}
            error={fieldErrors.logistics}
          />
        </fieldset>
        <fieldset className="card listing-section" disabled={!editable}>
          <legend>{label('images')}</legend>
          {fieldErrors.images && <p className="field-error">{fieldErrors.images}</p>}
          <div className="listing-images">
            {images.map((image, index) => (
              <ImageThumb
                key={'id' in image ? image.id : image.url}
                image={image}
                label={t('editor.remove_image')}
                onRemove={() => setImages((current) => current.filter((_, at) => at !== index))}
              />
            ))}
          </div>
          <div className="listing-row">
            <label className="field">
              <span className="field-label">{t('editor.upload_image')}</span>
              <input
                type="file"
                accept="image/png,image/jpeg,image/webp,image/gif"
                multiple
                onChange={(event) => upload(event.target.files)}
              />
            </label>
            <TextField
              label={t('editor.image_url')}
              type="url"
              value={imageUrl}
              onChange={(event) => setImageUrl(event.target.value)}
            />
            <button
              type="button"
              className="button button-secondary"
              disabled={!imageUrl.trim()}
              onClick={() => {
                setImages((current) => [...current, { url: imageUrl.trim() }]);
                setImageUrl('');
              }}
            >
              {t('editor.add_image_url')}
            </button>
          </div>
        </fieldset>
        <fieldset className="card listing-section" disabled={!editable}>
          <legend>{t('editor.variants')}</legend>
          {fieldErrors.tiers && <p className="field-error">{fieldErrors.tiers}</p>}
          {tiers.map((tier, index) => (
            <div key={tier.key} className="listing-row">
              <TextField
                label={t('editor.tier_name', { number: index + 1 })}
                limit={LISTING_LIMITS.tierName}
                value={tier.name}
                onChange={(event) =>
                  setTiers((current) =>
                    current.map((one, at) => (at === index ? { ...one, name: event.target.value } : one)),
                  )
                }
              />
              <TextField
                label={t('editor.tier_options', { number: index + 1 })}
                hint={t('editor.options_hint')}
                value={tier.options}
                onChange={(event) =>
                  setTiers((current) =>
                    current.map((one, at) => (at === index ? { ...one, options: event.target.value } : one)),
                  )
                }
              />
              <button
                type="button"
                className="button button-link"
                onClick={() => setTiers((current) => current.filter((_, at) => at !== index))}
              >
                {t('editor.remove_tier')}
              </button>
            </div>
          ))}
          {tiers.length < LISTING_LIMITS.tiers && (
            <button
              type="button"
              className="button button-secondary"
              onClick={() =>
                setTiers((current) => [...current, { key: crypto.randomUUID(), name: '', options: '' }])
              }
            >
              {t('editor.add_tier')}
            </button>
          )}
          <p className="muted">
            {t('editor.combinations', { count: combos.length, max: LISTING_LIMITS.combinations })}
          </p>
          {(fieldErrors.skus ||
            fieldErrors.seller_sku ||
            fieldErrors.price ||
            fieldErrors.master_code_id) && (
            <p className="field-error">
              {fieldErrors.skus ?? fieldErrors.seller_sku ?? fieldErrors.price ?? fieldErrors.master_code_id}
            </p>
          )}
          <table className="listing-grid-table" aria-label={t('editor.sku_rows')}>
            <thead>
              <tr>
                {tiers.length > 0 && <th>{t('editor.variant')}</th>}
                <th>{label('seller_sku')}</th>
                <th>{label('price')}</th>
                <th>{label('stock')}</th>
                <th>{label('master_code')}</th>
              </tr>
            </thead>
            <tbody>
              {combos.slice(0, LISTING_LIMITS.combinations * 2).map((index) => {
                const row = rowOf(index);
                const name = index.map((option, tier) => tierOptions[tier]?.[option]).join(' / ');
                return (
                  <tr key={index.join('.')}>
                    {tiers.length > 0 && <td>{name}</td>}
                    <td>
                      <input
                        className="input"
                        aria-label={`${label('seller_sku')} ${name}`.trim()}
                        value={row.seller_sku}
                        onChange={(event) => setRow(index, { seller_sku: event.target.value })}
                      />
                    </td>
                    <td>
                      <input
                        className="input"
                        inputMode="decimal"
                        aria-label={`${label('price')} ${name}`.trim()}
                        value={row.price}
                        onChange={(event) => setRow(index, { price: event.target.value })}
                      />
                    </td>
                    <td>
                      <input
                        className="input"
                        type="number"
                        min={0}
                        aria-label={`${label('stock')} ${name}`.trim()}
                        value={row.stock}
                        onChange={(event) => setRow(index, { stock: event.target.value })}
                      />
                    </td>
                    <td>
                      <MasterCodeInput
                        label={`${label('master_code')} ${name}`.trim()}
                        value={row.master_code}
                        onChange={(master_code) => setRow(index, { master_code })}
                      />
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </fieldset>
        {editable && (
          <button type="submit" className="button button-primary" disabled={save.isPending}>
            {t('editor.save')}
          </button>
        )}
      </form>
      {question && (
        <ConfirmDialog
          title={t('editor.question_title')}
          message={question.message}
          confirmLabel={t('editor.continue')}
          cancelLabel={t('editor.cancel')}
          busy={save.isPending}
          onCancel={() => setQuestion(null)}
          onConfirm={() => {
            const answer = question.answer;
            setQuestion(null);
            setAnswers(answer);
            void send(answer);
          }}
        />
      )}
    </div>
  );
}
