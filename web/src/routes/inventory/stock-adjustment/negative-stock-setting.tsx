import { useSaveStockSettings, useStockSettings } from '@web/api/stock';
import { useSession } from '@web/auth/session';
import { messageOf } from '@web/shell/form';
import { useNotify } from '@web/shell/notifications';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * The account's "refuse negative stock for manual deductions" setting: shown to whoever adjusts stock, changed by
 * the owner only (the API's rule). Marketplace oversells still go below zero either way; they are flagged.
 */
export function NegativeStockSetting() {
  const { t } = useTranslation('stock');
  const { isOwner } = useSession();
  const notify = useNotify();
  const id = useId();
  const settings = useStockSettings();
  const save = useSaveStockSettings();
  // The choice shows at once (a controlled checkbox would otherwise flick back until the request is under way).
  const [chosen, setChosen] = useState<boolean | null>(null);
  if (!settings.data) return null;
  const checked = chosen ?? settings.data.refuse_negative_manual;
  return (
    <div className="setting-toggle">
      <div className="field field-checkbox">
        <input
          id={id}
          type="checkbox"
          checked={checked}
          disabled={!isOwner || save.isPending}
          aria-describedby={`${id}-hint`}
          onChange={(event) => {
            const next = event.target.checked;
            setChosen(next);
            save.mutate(
              { refuse_negative_manual: next },
              {
                onSuccess: (answer) => notify({ kind: 'success', message: answer.msg }),
                onError: (error) => notify({ kind: 'error', message: messageOf(error) }),
                onSettled: () => setChosen(null),
              },
            );
          }}
        />
        <label htmlFor={id} className="field-label">
          {t('settings.refuse_negative')}
        </label>
      </div>
      <p id={`${id}-hint`} className="field-hint">
        {isOwner ? t('settings.refuse_negative_hint') : t('settings.owner_only')}
      </p>
    </div>
  );
}
