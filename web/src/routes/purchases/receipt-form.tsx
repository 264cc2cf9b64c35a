import { TEXT_LIMITS } from '@domain/shared/limits';
import {
  type GoodsReceiptDetail,
  newIdempotencyKey,
  type PurchaseDetail,
  useOpenReceipt,
} from '@web/api/purchases';
import { ModalDialog } from '@web/components/modal-dialog';
import { CheckboxField, FormMessage, fieldErrorsOf, messageOf, TextField } from '@web/shell/form';
import { type FormEvent, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * Receiving an order: a goods receive note for the lines still to come, each with received (arrived, damaged units
 * included), damaged (received, then written off) and returned (refused at the door: never in stock, still owed).
 * Received and returned together may not pass what is still receivable. "Receive now" completes the note at once
 * when the account needs no approval for it; otherwise it waits for one.
 */

interface Counts {
  received: string;
  damaged: string;
  returned: string;
}

export function ReceiptForm({
  purchase,
  onClose,
  onSaved,
}: {
  purchase: PurchaseDetail;
  onClose(): void;
  onSaved(note: GoodsReceiptDetail, msg: string): void;
}) {
  const { t } = useTranslation('purchases');
  const id = useId();
  const open = useOpenReceipt();
  const key = useRef(newIdempotencyKey());
  const lines = purchase.lines.filter((line) => line.receivable > 0);
  const [counts, setCounts] = useState<Record<string, Counts>>(() =>
    Object.fromEntries(
      lines.map((line) => [
        line.master_code.id,
        { received: String(line.receivable), damaged: '0', returned: '0' },
      ]),
    ),
  );
  const [reference, setReference] = useState('');
  const [note, setNote] = useState('');
  const [receiveNow, setReceiveNow] = useState(true);
  const [error, setError] = useState<string | null>(null);
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});

  const set = (masterCodeId: string, name: keyof Counts, value: string) =>
    setCounts((current) => ({ ...current, [masterCodeId]: { ...current[masterCodeId]!, [name]: value } }));

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (open.isPending) return;
    setError(null);
    setFieldErrors({});
    const items = lines
      .map((line) => {
        const count = counts[line.master_code.id]!;
        return {
          master_code_id: line.master_code.id,
          received: Number(count.received) || 0,
          damaged: Number(count.damaged) || 0,
          returned: Number(count.returned) || 0,
        };
      })
      .filter((item) => item.received + item.returned > 0);
    if (items.length === 0) return setError(t('receipt.errors.nothing'));
    try {
      const answer = await open.mutateAsync({
        purchaseId: purchase.id,
        body: {
          reference: reference.trim(),
          note: note.trim(),
          items,
          receive_now: receiveNow,
          idempotency_key: key.current,
        },
      });
      onSaved(answer.data, answer.msg);
    } catch (failure) {
      setError(messageOf(failure));
      setFieldErrors(fieldErrorsOf(failure));
      key.current = newIdempotencyKey();
    }
  }

  return (
    <ModalDialog
      title={t('receipt.title', { number: purchase.po_number })}
      onClose={onClose}
      closeLabel={t('actions.close')}
      size="large"
      footer={
        <>
          <button
            type="button"
            className="button button-secondary"
            onClick={onClose}
            disabled={open.isPending}
          >
            {t('actions.close')}
          </button>
          <button type="submit" form={id} className="button button-primary" disabled={open.isPending}>
            {t('receipt.save')}
          </button>
        </>
      }
    >
      <form
        id={id}
        className="form"
        noValidate
        onSubmit={submit}
        aria-label={t('receipt.title', { number: purchase.po_number })}
      >
        <p className="muted">{t('receipt.intro')}</p>
        {error && <FormMessage kind="error">{error}</FormMessage>}
        <table className="purchase-table">
          <thead>
            <tr>
              <th scope="col">{t('lines.item')}</th>
              <th scope="col" className="number">
                {t('lines.receivable')}
              </th>
              <th scope="col">{t('lines.received')}</th>
              <th scope="col">{t('lines.damaged')}</th>
              <th scope="col">{t('lines.returned_on_receipt')}</th>
            </tr>
          </thead>
          <tbody>
            {lines.map((line) => {
              const code = line.master_code.code ?? line.master_code.id;
              const count = counts[line.master_code.id]!;
              const input = (name: keyof Counts, label: string) => (
                <input
                  className="input number"
                  type="number"
                  min={0}
                  step={1}
                  aria-label={t(label, { code })}
                  value={count[name]}
                  onChange={(event) => set(line.master_code.id, name, event.target.value)}
                />
              );
              return (
                <tr key={line.master_code.id}>
                  <td>
                    {code} — {line.master_code.name}
                  </td>
                  <td className="number">{line.receivable}</td>
                  <td>{input('received', 'receipt.received_of')}</td>
                  <td>{input('damaged', 'receipt.damaged_of')}</td>
                  <td>{input('returned', 'receipt.returned_of')}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
        <TextField
          label={t('form.reference')}
          value={reference}
          limit={TEXT_LIMITS.reference}
          onChange={(event) => setReference(event.target.value)}
          error={fieldErrors.reference}
        />
        <TextField
          label={t('form.note')}
          value={note}
          limit={TEXT_LIMITS.note}
          onChange={(event) => setNote(event.target.value)}
          error={fieldErrors.note}
        />
        <CheckboxField
          label={t('receipt.receive_now')}
          checked={receiveNow}
          onChange={(event) => setReceiveNow(event.target.checked)}
        />
      </form>
    </ModalDialog>
  );
}
