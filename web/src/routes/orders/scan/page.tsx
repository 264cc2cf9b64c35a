import { useQueryClient } from '@tanstack/react-query';
import { useLiveRecord, useLiveRefresh } from '@web/api/live';
import {
  BATCHES_VIEW,
  loadCheck,
  ORDER_COUNTS_VIEW,
  resetScan,
  SCAN_CHECKS_VIEW,
  type ScanState,
  scanBatchItem,
  scanItem,
  scanKeys,
  scanSerial,
  scanTracking,
  useScanBatches,
  useScanSettings,
} from '@web/api/scan';
import { useSession } from '@web/auth/session';
import Forbidden from '@web/routes/forbidden';
import { messageOf, SelectField } from '@web/shell/form';
import { PageHeader } from '@web/shell/page';
import { type FormEvent, useCallback, useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { SCAN_KEYS } from './keys';
import '@web/routes/management.css';
import './scan.css';

type Notice = { kind: 'error' | 'success' | 'info'; text: string };

/** A short beep: high for a good scan, low for a refusal (where the browser allows sound at all). */
function beep(good: boolean) {
  try {
    const AudioContextClass =
      window.AudioContext ??
      (window as unknown as { webkitAudioContext?: typeof AudioContext }).webkitAudioContext;
    if (!AudioContextClass) return;
    const context = new AudioContextClass();
    const oscillator = context.createOscillator();
    const gain = context.createGain();
    oscillator.frequency.value = good ? 1200 : 300;
    gain.gain.value = 0.05;
    oscillator.connect(gain).connect(context.destination);
    oscillator.start();
    oscillator.stop(context.currentTime + (good ? 0.08 : 0.25));
    oscillator.onended = () => void context.close();
  } catch {
    // No sound: the screen still says it.
  }
}

/**
 * Orders → smart scan (/orders/smart-scan; spec §4, §5, §8): made for a keyboard-wedge scanner, which types what it
 * reads and presses Enter. One input keeps the focus: with no order open it takes a tracking number, which opens
 * that order's check; then it takes item codes (master code, seller SKU or UPC) until every unit is scanned, and
 * the order is scanned. The picker sees each line's scanned and required units, the order's progress and, when
 * scanning by batch, the batch's. Refusals are the spec's messages, said on screen (and with a low beep).
 */
export default function SmartScanPage() {
  const { t } = useTranslation('batches');
  const { can } = useSession();
  const queryClient = useQueryClient();
  const batches = useScanBatches();
  const settings = useScanSettings();
  const inputId = useId();
  const input = useRef<HTMLInputElement>(null);
  const [batchId, setBatchId] = useState('');
  const batchIdRef = useRef(batchId);
  batchIdRef.current = batchId;
  const [value, setValue] = useState('');
  // Bulk scan control: a quantity with an item, and one scan for a batch's single-item orders.
  const [quantity, setQuantity] = useState(1);
  const [bulk, setBulk] = useState(false);
  const bulkMode = bulk && batchId !== '' && settings.data?.bulk_single_items === true;
  const bulkRef = useRef(bulkMode);
  bulkRef.current = bulkMode;
  // Serial numbers: with the option on, the scan after each item is that unit's serial number (Enter alone skips).
  const [serials, setSerials] = useState(false);
  const serialsRef = useRef(serials);
  serialsRef.current = serials;
  const serialFor = useRef<{ lineId: string; code: string } | null>(null);
  const [serialLine, setSerialLine] = useState<{ lineId: string; code: string } | null>(null);
  const awaitSerial = (line: { lineId: string; code: string } | null) => {
    serialFor.current = line;
    setSerialLine(line);
  };
  const [state, setState] = useState<ScanState | null>(null);
  const [notice, setNotice] = useState<Notice | null>(null);
  const [busy, setBusy] = useState(false);
  const checking = state !== null && state.check.status === 'open';
  const allowed = SCAN_KEYS.some((key) => can(key));

  const focus = useCallback(() => input.current?.focus(), []);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the input takes the focus back after every change
  useEffect(() => {
    focus();
  }, [state, focus]);

  // Another screen (a supervisor's reset) moved this check: show it as it is now.
  const orderId = state?.order.id ?? '';
  const refetch = useCallback(async () => {
    if (!orderId) return;
    try {
      setState(await loadCheck(orderId));
    } catch {
      // The check is gone: keep what is shown.
    }
  }, [orderId]);
  useLiveRecord(SCAN_CHECKS_VIEW, orderId, refetch);
  const refreshBatches = useCallback(
    () => void queryClient.invalidateQueries({ queryKey: scanKeys.batches() }),
    [queryClient],
  );
  useLiveRefresh(BATCHES_VIEW, refreshBatches);
  useLiveRefresh(ORDER_COUNTS_VIEW, refreshBatches);

  // A scanner types the next code while the last one is still being checked: scans queue up and are checked in
  // the order they came, each against the check the one before it left (a tracking number first, then items).
  const queue = useRef<{ code: string; quantity: number }[]>([]);
  const draining = useRef(false);
  const current = useRef<ScanState | null>(null);
  current.current = state;

  async function drain() {
    if (draining.current) return;
    draining.current = true;
    setBusy(true);
    try {
      while (queue.current.length > 0) {
        const { code: scanned, quantity: units } = queue.current.shift()!;
        const open = current.current !== null && current.current.check.status === 'open';
        const serialOf = current.current ? serialFor.current : null;
        try {
          if (serialOf) {
            awaitSerial(null);
            if (!scanned.trim()) continue;
            const answer = await scanSerial(current.current!.order.id, serialOf.lineId, scanned);
            current.current = answer.data;
            setState(answer.data);
            setNotice({ kind: 'success', text: answer.msg });
            beep(true);
            continue;
          }
          if (!open && bulkRef.current) {
            const bulkAnswer = await scanBatchItem(batchIdRef.current, scanned);
            setNotice({ kind: 'success', text: bulkAnswer.msg });
            beep(true);
            void queryClient.invalidateQueries({ queryKey: scanKeys.batches() });
            continue;
          }
          const answer = open
            ? await scanItem(current.current!.order.id, scanned, units)
            : await scanTracking(scanned, batchIdRef.current || null);
          current.current = answer.data;
          setState(answer.data);
          const line = answer.data.check.lines.find((l) => l.line_id === answer.data.scanned_line);
          if (open && serialsRef.current && line) awaitSerial({ lineId: line.line_id, code: line.code });
          setNotice({ kind: answer.data.check.completed ? 'success' : 'info', text: answer.msg });
          beep(true);
          if (answer.data.check.completed)
            void queryClient.invalidateQueries({ queryKey: scanKeys.batches() });
        } catch (error) {
          // The picker hears the refusal and looks: what was scanned after it is not checked against a state
          // they did not expect.
          queue.current = [];
          // A refused serial number (twice on the order, more than the units) waits to be scanned again.
          if (serialOf) awaitSerial(serialOf);
          setNotice({ kind: 'error', text: messageOf(error) });
          beep(false);
        }
      }
    } finally {
      draining.current = false;
      setBusy(false);
    }
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    queue.current.push({ code: value, quantity });
    setValue('');
    setQuantity(1);
    void drain();
  }

  async function reset() {
    if (!state || busy) return;
    setBusy(true);
    awaitSerial(null);
    try {
      const answer = await resetScan(state.order.id);
      setState(answer.data);
      setNotice({ kind: 'info', text: answer.msg });
    } catch (error) {
      setNotice({ kind: 'error', text: messageOf(error) });
    } finally {
      setBusy(false);
    }
  }

  if (!allowed) return <Forbidden />;
  const chosen = batches.data?.find((batch) => batch.id === batchId);
  const batchProgress = state?.batch ?? (chosen ? { ...chosen } : null);
  const percent = state?.check.required ? Math.round((state.check.scanned / state.check.required) * 100) : 0;

  return (
    <div className="page management-page smart-scan">
      <PageHeader title={t('scan.title')} intro={t('scan.intro')} />
      <div className="smart-scan-controls">
        <SelectField
          label={t('scan.batch')}
          value={batchId}
          placeholder={t('scan.any_batch')}
          onChange={(event) => {
            setBatchId(event.target.value);
            focus();
          }}
          options={(batches.data ?? []).map((batch) => ({
            value: batch.id,
            label: t('scan.batch_option', {
              label: batch.label,
              name: batch.name,
              scanned: batch.scanned_orders,
              total: batch.total_orders,
            }),
          }))}
        />
        {batchProgress && (
          <div className="smart-scan-batch" role="status" aria-label={t('scan.batch_progress')}>
            <strong>{batchProgress.label}</strong>{' '}
            {t('scan.batch_value', {
              scanned: batchProgress.scanned_orders,
              count: batchProgress.total_orders,
            })}
            <progress max={batchProgress.total_orders || 1} value={batchProgress.scanned_orders} />
          </div>
        )}
      </div>

      <form className="smart-scan-form" onSubmit={submit} aria-label={t('scan.form_label')}>
        <label htmlFor={inputId} className="smart-scan-label">
          {serialLine
            ? t('scan.serial_label', { code: serialLine.code })
            : checking || bulkMode
              ? t('scan.item_code')
              : t('scan.tracking_number')}
        </label>
        <input
          id={inputId}
          ref={input}
          className="input smart-scan-input"
          autoComplete="off"
          autoCapitalize="off"
          spellCheck={false}
          value={value}
          aria-busy={busy || undefined}
          placeholder={
            serialLine
              ? t('scan.serial_placeholder')
              : checking || bulkMode
                ? t('scan.item_placeholder')
                : t('scan.tracking_placeholder')
          }
          onChange={(event) => setValue(event.target.value)}
          onBlur={(event) => {
            // Clicking on the page (not on a control) gives the focus back to the scanner's input.
            if (!event.relatedTarget) setTimeout(focus, 0);
          }}
        />
        {checking && settings.data?.quantity_entry && (
          <label className="smart-scan-quantity">
            {t('scan.quantity')}
            <input
              type="number"
              className="input"
              min={1}
              max={10000}
              value={quantity}
              onChange={(event) => setQuantity(Math.max(1, Math.trunc(Number(event.target.value)) || 1))}
            />
          </label>
        )}
        <label className="smart-scan-bulk">
          <input
            type="checkbox"
            checked={serials}
            onChange={(event) => {
              setSerials(event.target.checked);
              if (!event.target.checked) awaitSerial(null);
              focus();
            }}
          />
          {t('scan.serials')}
        </label>
        {serialLine && (
          <button
            type="button"
            className="button button-secondary"
            onClick={() => {
              awaitSerial(null);
              focus();
            }}
          >
            {t('scan.skip_serial')}
          </button>
        )}
        {!checking && batchId !== '' && settings.data?.bulk_single_items && (
          <label className="smart-scan-bulk">
            <input type="checkbox" checked={bulk} onChange={(event) => setBulk(event.target.checked)} />
            {t('scan.bulk')}
          </label>
        )}
        {checking && (
          <div className="smart-scan-actions">
            <button
              type="button"
              className="button button-secondary"
              onClick={() => {
                current.current = null;
                awaitSerial(null);
                setState(null);
                setNotice(null);
              }}
            >
              {t('scan.next_order')}
            </button>
            <button type="button" className="button button-danger-outline" onClick={() => void reset()}>
              {t('scan.reset')}
            </button>
          </div>
        )}
      </form>

      {notice && (
        <div
          className={`form-message form-message-${notice.kind} smart-scan-notice`}
          role={notice.kind === 'error' ? 'alert' : 'status'}
        >
          {notice.text}
        </div>
      )}

      {state && (
        <section
          className="smart-scan-order"
          aria-label={t('scan.order_label', { order: state.order.order_number })}
        >
          <div className="smart-scan-order-head">
            <h2>{t('scan.order', { order: state.order.order_number })}</h2>
            <span className="muted">{state.order.tracking_number}</span>
            <span className={`badge ${state.check.completed ? 'badge-new' : 'badge-warning'}`}>
              {t(`scan.check_status.${state.check.status}`)}
            </span>
          </div>
          <div className="smart-scan-progress" role="status" aria-label={t('scan.order_progress')}>
            <progress max={state.check.required || 1} value={state.check.scanned} />
            <span>
              {t('scan.units', { scanned: state.check.scanned, count: state.check.required, percent })}
            </span>
          </div>
          <table className="batch-table smart-scan-lines" aria-label={t('scan.lines_label')}>
            <thead>
              <tr>
                <th>{t('pick.code')}</th>
                <th>{t('pick.name')}</th>
                <th className="numeric">{t('scan.scanned')}</th>
                <th>{t('scan.serial_numbers')}</th>
              </tr>
            </thead>
            <tbody>
              {state.check.lines.map((line) => (
                <tr
                  key={line.line_id}
                  className={[
                    line.scanned === line.required ? 'line-done' : '',
                    line.line_id === state.scanned_line ? 'line-last' : '',
                  ].join(' ')}
                >
                  <td>{line.code}</td>
                  <td>{line.name}</td>
                  <td className="numeric">
                    {line.scanned}/{line.required}
                  </td>
                  <td>{line.serial_numbers.join(', ')}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      )}
    </div>
  );
}
