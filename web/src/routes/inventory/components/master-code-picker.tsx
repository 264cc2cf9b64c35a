import { type MasterCode, type MasterCodeType, useMasterCodeSearch } from '@web/api/master-codes';
import { messageOf } from '@web/shell/form';
import { Spinner } from '@web/shell/spinner';
import { useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * Finds master codes by code, name, seller SKU or UPC (the first 20 matches) and offers each with an "add" button;
 * those already chosen are marked instead. Used for a combo's items and for placing a master code in a warehouse.
 */

const SEARCH_DELAY_MS = 300;

export function MasterCodePicker({
  label,
  type,
  chosen = [],
  onPick,
}: {
  /** The search box's label. */
  label: string;
  type?: MasterCodeType;
  /** Ids already picked: shown as added. */
  chosen?: readonly string[];
  onPick(masterCode: MasterCode): void;
}) {
  const { t } = useTranslation('inventory');
  const id = useId();
  const [text, setText] = useState('');
  const [search, setSearch] = useState('');
  useEffect(() => {
    const timer = setTimeout(() => setSearch(text.trim()), SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [text]);
  const results = useMasterCodeSearch(search, type ? { type } : {});
  const rows = results.data?.rows ?? [];

  return (
    <div className="picker">
      <div className="field">
        <label htmlFor={id} className="field-label">
          {label}
        </label>
        <input
          id={id}
          type="search"
          className="input"
          value={text}
          placeholder={t('picker.placeholder')}
          onChange={(event) => setText(event.target.value)}
          autoComplete="off"
        />
      </div>
      <section className="picker-results" aria-label={t('picker.results')}>
        {results.isPending ? (
          <Spinner label={t('loading')} />
        ) : results.error ? (
          <p className="error-text" role="alert">
            {messageOf(results.error)}
          </p>
        ) : rows.length === 0 ? (
          <p className="muted">{t('picker.none')}</p>
        ) : (
          <ul className="picker-list">
            {rows.map((row) => {
              const picked = chosen.includes(row.id);
              return (
                <li key={row.id} className="picker-row">
                  <span className="picker-name">
                    <strong>{row.code}</strong> <span className="muted">{row.name}</span>
                    {row.status === 'inactive' && (
                      <span className="badge badge-muted">{t('status.inactive')}</span>
                    )}
                  </span>
                  <button
                    type="button"
                    className="button button-small"
                    disabled={picked}
                    aria-label={t('picker.add_named', { code: row.code })}
                    onClick={() => onPick(row)}
                  >
                    {picked ? t('picker.added') : t('picker.add')}
                  </button>
                </li>
              );
            })}
          </ul>
        )}
        {results.data && results.data.lastRow > rows.length && (
          <p className="muted field-hint">
            {t('picker.more', { count: results.data.lastRow - rows.length })}
          </p>
        )}
      </section>
    </div>
  );
}
