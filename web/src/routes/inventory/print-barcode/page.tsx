import {
  LABEL_CURRENCIES,
  LABEL_LIMITS,
  LABEL_ORIENTATIONS,
  LABEL_PAPERS,
  LABEL_SYMBOLOGIES,
  type LabelCurrency,
  type LabelOrientation,
  type LabelPaper,
  type LabelSymbology,
  usePrintLabels,
} from '@web/api/barcode-labels';
import { ApiFailure } from '@web/api/client';
import { CheckboxField, FormMessage, messageOf, SelectField, TextField } from '@web/shell/form';
import { useNotify } from '@web/shell/notifications';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { MasterCodePicker, type PickedMasterCode } from '../stock-common/master-code-picker';
import '../stock-common/stock.css';

/**
 * Inventory → barcode printing: choose master codes and how many labels of each, the paper (A4, Letter or a
 * continuous roll), the label's size in millimetres, portrait or landscape, Code 128 or QR, labels per sheet and
 * whether the name and price print; the PDF downloads through the API with the bearer token.
 */

interface Chosen extends PickedMasterCode {
  copies: string;
}

type Field = 'items' | 'width' | 'height' | 'per_sheet' | 'copies';

const whole = (text: string) => (/^\d+$/.test(text.trim()) ? Number(text.trim()) : Number.NaN);
const between = (value: number, min: number, max: number) =>
  Number.isFinite(value) && value >= min && value <= max;

export default function PrintBarcodePage() {
  const { t } = useTranslation('stock');
  const notify = useNotify();
  const print = usePrintLabels();
  const [items, setItems] = useState<Chosen[]>([]);
  const [paper, setPaper] = useState<LabelPaper>('a4');
  const [width, setWidth] = useState('50');
  const [height, setHeight] = useState('30');
  const [orientation, setOrientation] = useState<LabelOrientation>('portrait');
  const [symbology, setSymbology] = useState<LabelSymbology>('code128');
  const [perSheet, setPerSheet] = useState('');
  const [showName, setShowName] = useState(true);
  const [showPrice, setShowPrice] = useState(false);
  const [currency, setCurrency] = useState<LabelCurrency | ''>('');
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [failure, setFailure] = useState<string | null>(null);

  function add(picked: PickedMasterCode | null) {
    if (!picked) return;
    setErrors((current) => ({ ...current, items: undefined }));
    setItems((current) =>
      current.some((item) => item.id === picked.id)
        ? current.map((item) =>
            item.id === picked.id ? { ...item, copies: String((whole(item.copies) || 0) + 1) } : item,
          )
        : [...current, { ...picked, copies: '1' }],
    );
  }

  function check(): Partial<Record<Field, string>> {
    const found: Partial<Record<Field, string>> = {};
    if (items.length === 0) found.items = t('labels.errors.no_items');
    const { widthMm, heightMm } = LABEL_LIMITS;
    if (!between(Number(width), widthMm.min, widthMm.max))
      found.width = t('labels.errors.width', { min: widthMm.min, max: widthMm.max });
    if (!between(Number(height), heightMm.min, heightMm.max))
      found.height = t('labels.errors.height', { min: heightMm.min, max: heightMm.max });
    if (
      paper !== 'continuous' &&
      perSheet.trim() !== '' &&
      !between(whole(perSheet), 1, LABEL_LIMITS.perSheetMax)
    )
      found.per_sheet = t('labels.errors.per_sheet', { max: LABEL_LIMITS.perSheetMax });
    const copies = items.map((item) => whole(item.copies));
    if (copies.some((count) => !between(count, 1, LABEL_LIMITS.copiesMax)))
      found.copies = t('labels.errors.copies', { max: LABEL_LIMITS.copiesMax });
    else if (copies.reduce((sum, count) => sum + count, 0) > LABEL_LIMITS.totalMax)
      found.copies = t('labels.errors.total', { max: LABEL_LIMITS.totalMax });
    return found;
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    setFailure(null);
    const found = check();
    setErrors(found);
    if (Object.values(found).some(Boolean)) return;
    try {
      const fileName = await print.mutateAsync({
        master_codes: items.map((item) => ({ id: item.id, copies: whole(item.copies) })),
        paper,
        width_mm: Number(width),
        height_mm: Number(height),
        orientation,
        symbology,
        per_sheet: paper === 'continuous' || perSheet.trim() === '' ? null : whole(perSheet),
        show_name: showName,
        show_price: showPrice,
        currency: showPrice && currency !== '' ? currency : null,
      });
      notify({ kind: 'success', message: t('labels.downloaded', { file: fileName }) });
    } catch (error) {
      setFailure(error instanceof ApiFailure ? messageOf(error) : t('download.denied'));
    }
  }

  const totalLabels = items.reduce((sum, item) => sum + (whole(item.copies) || 0), 0);

  return (
    <div className="page stock-page">
      <div className="page-header">
        <div>
          <h1 className="page-title">{t('labels.title')}</h1>
          <p className="muted">{t('labels.intro')}</p>
        </div>
      </div>
      <form className="form card" onSubmit={submit} noValidate aria-label={t('labels.form_label')}>
        {failure && <FormMessage kind="error">{failure}</FormMessage>}
        <fieldset className="form-section">
          <legend>{t('labels.items_heading')}</legend>
          <MasterCodePicker label={t('labels.add_master_code')} value={null} onChange={add} clearOnPick />
          {errors.items && (
            <p className="field-error" role="alert">
              {errors.items}
            </p>
          )}
          {items.length > 0 && (
            <table className="stock-table">
              <caption className="visually-hidden">{t('labels.items_heading')}</caption>
              <thead>
                <tr>
                  <th scope="col">{t('labels.columns.code')}</th>
                  <th scope="col">{t('labels.columns.name')}</th>
                  <th scope="col">{t('labels.columns.copies')}</th>
                  <th scope="col">
                    <span className="visually-hidden">{t('labels.columns.actions')}</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {items.map((item) => (
                  <tr key={item.id}>
                    <td>{item.code}</td>
                    <td>{item.name}</td>
                    <td>
                      <input
                        className="input input-narrow"
                        type="number"
                        min={1}
                        max={LABEL_LIMITS.copiesMax}
                        inputMode="numeric"
                        aria-label={t('labels.copies_of', { code: item.code })}
                        value={item.copies}
                        onChange={(event) => {
                          const copies = event.target.value;
                          setErrors((current) => ({ ...current, copies: undefined }));
                          setItems((current) =>
                            current.map((other) => (other.id === item.id ? { ...other, copies } : other)),
                          );
                        }}
                      />
                    </td>
                    <td>
                      <button
                        type="button"
                        className="button button-small button-danger-outline"
                        aria-label={t('labels.remove_named', { code: item.code })}
                        onClick={() => setItems((current) => current.filter((other) => other.id !== item.id))}
                      >
                        {t('labels.remove')}
                      </button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
          {errors.copies && (
            <p className="field-error" role="alert">
              {errors.copies}
            </p>
          )}
          {items.length > 0 && <p className="muted">{t('labels.total', { count: totalLabels })}</p>}
        </fieldset>

        <fieldset className="form-section">
          <legend>{t('labels.layout_heading')}</legend>
          <div className="form-grid">
            <SelectField
              label={t('labels.fields.paper')}
              value={paper}
              onChange={(event) => setPaper(event.target.value as LabelPaper)}
              options={LABEL_PAPERS.map((value) => ({ value, label: t(`labels.paper.${value}`) }))}
              hint={paper === 'continuous' ? t('labels.hints.continuous') : undefined}
            />
            <TextField
              label={t('labels.fields.width')}
              type="number"
              inputMode="decimal"
              min={LABEL_LIMITS.widthMm.min}
              max={LABEL_LIMITS.widthMm.max}
              step="0.1"
              value={width}
              error={errors.width}
              onChange={(event) => {
                setWidth(event.target.value);
                setErrors((current) => ({ ...current, width: undefined }));
              }}
              required
            />
            <TextField
              label={t('labels.fields.height')}
              type="number"
              inputMode="decimal"
              min={LABEL_LIMITS.heightMm.min}
              max={LABEL_LIMITS.heightMm.max}
              step="0.1"
              value={height}
              error={errors.height}
              onChange={(event) => {
                setHeight(event.target.value);
                setErrors((current) => ({ ...current, height: undefined }));
              }}
              required
            />
            <SelectField
              label={t('labels.fields.orientation')}
              value={orientation}
              onChange={(event) => setOrientation(event.target.value as LabelOrientation)}
              options={LABEL_ORIENTATIONS.map((value) => ({
                value,
                label: t(`labels.orientation.${value}`),
              }))}
            />
            <SelectField
              label={t('labels.fields.symbology')}
              value={symbology}
              onChange={(event) => setSymbology(event.target.value as LabelSymbology)}
              options={LABEL_SYMBOLOGIES.map((value) => ({ value, label: t(`labels.symbology.${value}`) }))}
            />
            <TextField
              label={t('labels.fields.per_sheet')}
              type="number"
              inputMode="numeric"
              min={1}
              max={LABEL_LIMITS.perSheetMax}
              value={paper === 'continuous' ? '' : perSheet}
              disabled={paper === 'continuous'}
              error={errors.per_sheet}
              hint={paper === 'continuous' ? t('labels.hints.per_sheet_roll') : t('labels.hints.per_sheet')}
              onChange={(event) => {
                setPerSheet(event.target.value);
                setErrors((current) => ({ ...current, per_sheet: undefined }));
              }}
            />
          </div>
        </fieldset>

        <fieldset className="form-section">
          <legend>{t('labels.text_heading')}</legend>
          <div className="form-grid">
            <CheckboxField
              label={t('labels.fields.show_name')}
              checked={showName}
              onChange={(event) => setShowName(event.target.checked)}
            />
            <CheckboxField
              label={t('labels.fields.show_price')}
              checked={showPrice}
              onChange={(event) => setShowPrice(event.target.checked)}
            />
            {showPrice && (
              <SelectField
                label={t('labels.fields.currency')}
                value={currency}
                onChange={(event) => setCurrency(event.target.value as LabelCurrency | '')}
                options={[
                  { value: '', label: t('labels.unit_price') },
                  ...LABEL_CURRENCIES.map((value) => ({ value, label: value })),
                ]}
              />
            )}
          </div>
        </fieldset>

        <div className="form-actions">
          <button type="submit" className="button button-primary" disabled={print.isPending}>
            {print.isPending ? t('labels.printing') : t('labels.print')}
          </button>
        </div>
      </form>
    </div>
  );
}
