import { ApiFailure } from '@web/api/client';
import type { ComboItemInput } from '@web/api/combos';
import type { ComboItem } from '@web/api/master-codes';
import { useSession } from '@web/auth/session';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { isWholeNumber } from './fields';
import { MasterCodePicker } from './master-code-picker';

/**
 * A combo's items being edited: standard master codes, each once, each with a whole quantity of 1 or more. The
 * component picker searches the master codes; the API refuses a combo, the combo itself or an unknown one, and its
 * message names the item's position.
 */

export interface ItemDraft {
  component_id: string;
  code: string;
  name: string;
  status: ComboItem['status'];
  quantity: string;
}

export const draftsOf = (items: readonly ComboItem[]): ItemDraft[] =>
  items.map((item) => ({ ...item, quantity: String(item.quantity) }));

export const itemsInput = (items: readonly ItemDraft[]): ComboItemInput[] =>
  items.map((item) => ({ component_id: item.component_id, quantity: Number(item.quantity.trim()) }));

/** The items' own problems: none at all, or a quantity that is not a whole number of 1 or more (by index). */
export function checkItems(
  items: readonly ItemDraft[],
  t: TFunction<'inventory'>,
): { list?: string; quantities: Record<number, string> } {
  const quantities: Record<number, string> = {};
  items.forEach((item, index) => {
    if (!isWholeNumber(item.quantity, 1)) quantities[index] = t('combo.errors.quantity');
  });
  return items.length === 0 ? { list: t('combo.errors.items_required'), quantities } : { quantities };
}

/** The API's messages about one item (`body/items/<index>/…`), by index. */
export function itemErrorsOf(error: unknown): Record<number, string> {
  if (!(error instanceof ApiFailure) || !error.errors) return {};
  const found: Record<number, string> = {};
  for (const issue of error.errors) {
    const match = /\/items\/(\d+)(\/|$)/.exec(issue.path);
    if (match && found[Number(match[1])] === undefined) found[Number(match[1])] = issue.message;
  }
  return found;
}

export function ComboItemsEditor({
  items,
  onChange,
  errors = {},
  listError,
  comboId,
}: {
  items: readonly ItemDraft[];
  onChange(items: ItemDraft[]): void;
  /** Messages by item index. */
  errors?: Record<number, string>;
  listError?: string | undefined;
  /** The combo being edited, never offered as its own item. */
  comboId?: string;
}) {
  const { t } = useTranslation('inventory');
  const { can } = useSession();
  const setQuantity = (index: number, quantity: string) =>
    onChange(items.map((item, at) => (at === index ? { ...item, quantity } : item)));
  const remove = (index: number) => onChange(items.filter((_, at) => at !== index));

  return (
    <fieldset className="form-section combo-items">
      <legend>{t('combo.items_title')}</legend>
      {listError && (
        <p className="field-error" role="alert">
          {listError}
        </p>
      )}
      {items.length === 0 ? (
        <p className="muted">{t('combo.no_items')}</p>
      ) : (
        <table className="simple-table">
          <thead>
            <tr>
              <th scope="col">{t('combo.columns.code')}</th>
              <th scope="col">{t('combo.columns.name')}</th>
              <th scope="col">{t('combo.columns.quantity')}</th>
              <th scope="col">
                <span className="visually-hidden">{t('columns.actions')}</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {items.map((item, index) => {
              const error = errors[index];
              const errorId = `combo-item-${item.component_id}-error`;
              return (
                <tr key={item.component_id}>
                  <td>
                    {item.code}
                    {item.status === 'inactive' && (
                      <span className="badge badge-muted">{t('status.inactive')}</span>
                    )}
                  </td>
                  <td>{item.name}</td>
                  <td>
                    <input
                      className="input input-quantity"
                      type="number"
                      inputMode="numeric"
                      min={1}
                      step={1}
                      value={item.quantity}
                      aria-label={t('combo.quantity_of', { code: item.code })}
                      aria-invalid={error ? true : undefined}
                      aria-describedby={error ? errorId : undefined}
                      onChange={(event) => setQuantity(index, event.target.value)}
                    />
                    {error && (
                      <p id={errorId} className="field-error">
                        {error}
                      </p>
                    )}
                  </td>
                  <td>
                    <button
                      type="button"
                      className="button button-small button-danger-outline"
                      aria-label={t('combo.remove_named', { code: item.code })}
                      onClick={() => remove(index)}
                    >
                      {t('actions.remove')}
                    </button>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
      {can('inventory-master-code') || can('inventory-combo-list') ? (
        <MasterCodePicker
          label={t('combo.find_component')}
          type="standard"
          chosen={[...items.map((item) => item.component_id), ...(comboId ? [comboId] : [])]}
          onPick={(picked) =>
            onChange([
              ...items,
              {
                component_id: picked.id,
                code: picked.code,
                name: picked.name,
                status: picked.status,
                quantity: '1',
              },
            ])
          }
        />
      ) : (
        <p className="muted">{t('combo.picker_needs_permission')}</p>
      )}
    </fieldset>
  );
}
