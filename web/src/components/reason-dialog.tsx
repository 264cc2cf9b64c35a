import { TEXT_LIMITS } from '@domain/shared/limits';
import { TextAreaField } from '@web/shell/form';
import { type FormEvent, useId, useState } from 'react';
import { ModalDialog } from './modal-dialog';

/**
 * Asks for the reason of an action that takes one (reject, cancel, void): a text of at most the reason limit, required
 * when `requiredMessage` is given (shown when it is left empty). Confirming hands over the trimmed text.
 */
export function ReasonDialog({
  title,
  message,
  reasonLabel,
  confirmLabel,
  closeLabel,
  requiredMessage,
  busy,
  onClose,
  onConfirm,
}: {
  title: string;
  /** What the action will do, above the field. */
  message?: string;
  reasonLabel: string;
  confirmLabel: string;
  closeLabel: string;
  requiredMessage?: string;
  busy: boolean;
  onClose(): void;
  onConfirm(reason: string): void;
}) {
  const id = useId();
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | undefined>(undefined);
  function submit(event: FormEvent) {
    event.preventDefault();
    const text = reason.trim();
    if (requiredMessage && !text) {
      setError(requiredMessage);
      return;
    }
    // The field already says it is too long.
    if (text.length > TEXT_LIMITS.reason) return;
    onConfirm(text);
  }
  return (
    <ModalDialog
      title={title}
      onClose={onClose}
      size="small"
      footer={
        <>
          <button type="button" className="button button-secondary" onClick={onClose} disabled={busy}>
            {closeLabel}
          </button>
          <button type="submit" form={id} className="button button-danger" disabled={busy}>
            {confirmLabel}
          </button>
        </>
      }
    >
      <form id={id} className="form" onSubmit={submit} noValidate>
        {message && <p>{message}</p>}
        <TextAreaField
          label={reasonLabel}
          value={reason}
          limit={TEXT_LIMITS.reason}
          required={requiredMessage !== undefined}
          error={error}
          onChange={(event) => {
            setReason(event.target.value);
            setError(undefined);
          }}
        />
      </form>
    </ModalDialog>
  );
}
