import { type PickerMasterCode, QUANTITY_MAX } from '@web/api/transfers';
import { useTranslation } from 'react-i18next';
import { MasterCodePicker } from './master-code-picker';

/** The lines of a request or transfer being made: master codes picked one by one, each with its quantity. */

export interface DraftLine {
  masterCode: PickerMasterCode;
  quantity: string;
}

export const isQuantity = (text: string) =>
  /^\d+$/.test(text.trim()) && Number(text) >= 1 && Number(text) <= QUANTITY_MAX;

export function LinesEditor({
  lines,
  onChange,
  error,
  lineErrors,
  lineWarnings = {},
}: {
  lines: DraftLine[];
  onChange: (lines: DraftLine[]) => void;
  error?: string | undefined;
  /** A message per line, by master code id. */
  lineErrors: Record<string, string | undefined>;
  /** A warning per line that does not stop saving (more than the source has on hand), by master code id. */
  lineWarnings?: Record<string, string | undefined>;
}) {
  const { t } = useTranslation('transfers');
  const picked = new Set(lines.map((line) => line.masterCode.id));
  return (
    <fieldset className="form-section transfer-lines">
      <legend>{t('form.lines')}</legend>
      <MasterCodePicker
        label={t('form.add_master_code')}
        exclude={picked}
        error={error}
        onPick={(masterCode) => onChange([...lines, { masterCode, quantity: '1' }])}
      />
      {lines.length > 0 && (
        <table className="transfer-table">
          <thead>
            <tr>
              <th scope="col">{t('columns.master_code')}</th>
              <th scope="col">{t('columns.quantity')}</th>
              <th scope="col">
                <span className="visually-hidden">{t('columns.actions')}</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {lines.map((line, index) => {
              const lineError = lineErrors[line.masterCode.id];
              const errorId = `line-error-${line.masterCode.id}`;
              const warning = lineError ? undefined : lineWarnings[line.masterCode.id];
              const warningId = `line-warning-${line.masterCode.id}`;
              return (
                <tr key={line.masterCode.id}>
                  <td>
                    <strong>{line.masterCode.code}</strong>{' '}
                    <span className="muted">{line.masterCode.name}</span>
                  </td>
                  <td>
                    <input
                      className="input transfer-quantity"
                      inputMode="numeric"
                      aria-label={t('form.quantity_of', { code: line.masterCode.code })}
                      aria-invalid={lineError ? true : undefined}
                      aria-describedby={lineError ? errorId : warning ? warningId : undefined}
                      value={line.quantity}
                      onChange={(event) =>
                        onChange(
                          lines.map((other, at) =>
                            at === index ? { ...other, quantity: event.target.value } : other,
                          ),
                        )
                      }
                    />
                    {lineError && (
                      <p id={errorId} className="field-error">
                        {lineError}
                      </p>
                    )}
                    {warning && (
                      <p id={warningId} className="transfer-shortfall">
                        {warning}
                      </p>
                    )}
                  </td>
                  <td>
                    <button
                      type="button"
                      className="button button-small button-danger-outline"
                      aria-label={t('form.remove_named', { code: line.masterCode.code })}
                      onClick={() => onChange(lines.filter((_, at) => at !== index))}
                    >
                      {t('form.remove')}
                    </button>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
    </fieldset>
  );
}
