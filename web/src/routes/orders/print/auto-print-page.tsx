import { ORDERS_VIEW } from '@domain/shared/live-views';
import { AUTO_PRINT_STATE_LIST, type AutoPrintState, claimAutoPrint } from '@web/api/auto-print';
import { useLiveRefresh } from '@web/api/live';
import { fetchPdf, PRINT_DOCUMENTS, type PrintDocument, type PrintOrigin } from '@web/api/printing';
import { CheckboxField, FormMessage, messageOf, SelectField } from '@web/shell/form';
import { useDateTime } from '@web/shell/format';
import { PageHeader } from '@web/shell/page';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import './printing.css';

/**
 * /orders/worker-auto-print (spec shell.md; issue 14): a station that prints each order's documents as the order
 * reaches the chosen state. It follows the board's live view; on each change it claims the orders that reached the
 * state since it started (the server gives each order's document to one station once, so two stations or a reload
 * never print it twice) and prints them through the print route, which records them in the print log from the
 * state's origin. The station's id and a running station's settings are kept in the browser, so a reload carries
 * on where it was.
 */

const STATION_KEY = 'kedai.autoPrint.station';
const RUNNING_KEY = 'kedai.autoPrint.running';

interface Running {
  state: AutoPrintState;
  documents: PrintDocument[];
  since: string;
}

interface Printed {
  at: string;
  document: PrintDocument;
  orders: string[];
}

const stationId = () => {
  let id = localStorage.getItem(STATION_KEY);
  if (!id) {
    id = crypto.randomUUID();
    localStorage.setItem(STATION_KEY, id);
  }
  return id;
};

const storedRunning = (): Running | null => {
  try {
    const value = JSON.parse(localStorage.getItem(RUNNING_KEY) ?? 'null') as Running | null;
    return value && AUTO_PRINT_STATE_LIST.includes(value.state) ? value : null;
  } catch {
    return null;
  }
};

export default function AutoPrintPage() {
  const { t } = useTranslation('printing');
  const { t: tOrders } = useTranslation('orders');
  const dateTime = useDateTime({ seconds: true });
  const [running, setRunning] = useState<Running | null>(storedRunning);
  const [state, setState] = useState<AutoPrintState>(running?.state ?? 'unscan');
  const [documents, setDocuments] = useState<PrintDocument[]>(running?.documents ?? ['AWB']);
  const [printed, setPrinted] = useState<Printed[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [pdf, setPdf] = useState<string | null>(null);
  const frame = useRef<HTMLIFrameElement>(null);
  const busy = useRef(false);
  const again = useRef(false);

  /** Claims and prints until nothing is left; a notice that arrives meanwhile runs one more round. */
  const round = useCallback(async () => {
    if (!running) return;
    if (busy.current) {
      again.current = true;
      return;
    }
    busy.current = true;
    try {
      do {
        again.current = false;
        for (const document of running.documents) {
          let more = true;
          while (more) {
            const claim = await claimAutoPrint({
              station: stationId(),
              document,
              state: running.state,
              since: running.since,
            });
            more = claim.more;
            if (claim.orders.length === 0) continue;
            const { blob } = await fetchPdf(
              document,
              claim.orders.map((order) => order.id),
              claim.origin as PrintOrigin,
            );
            setPdf((previous) => {
              if (previous) URL.revokeObjectURL(previous);
              return URL.createObjectURL(blob);
            });
            setPrinted((list) =>
              [
                {
                  at: new Date().toISOString(),
                  document,
                  orders: claim.orders.map((order) => order.order_number),
                },
                ...list,
              ].slice(0, 50),
            );
          }
        }
      } while (again.current);
      setError(null);
    } catch (failure) {
      setError(messageOf(failure));
    } finally {
      busy.current = false;
    }
  }, [running]);

  useLiveRefresh(ORDERS_VIEW, round);
  useEffect(() => {
    void round();
  }, [round]);

  /**
   * Opens the browser's print of the newest PDF. A browser whose PDF viewer keeps its frame apart refuses; the PDF
   * then stays shown with its print and download buttons (a station is best run with the browser's kiosk printing).
   */
  const printFrame = () => {
    try {
      frame.current?.contentWindow?.print();
    } catch {
      // shown, with the buttons, for the person at the station
    }
  };

  const start = () => {
    const next = { state, documents, since: new Date().toISOString() };
    localStorage.setItem(RUNNING_KEY, JSON.stringify(next));
    setRunning(next);
  };
  const stop = () => {
    localStorage.removeItem(RUNNING_KEY);
    setRunning(null);
  };
  const toggle = (document: PrintDocument, on: boolean) =>
    setDocuments((list) => (on ? [...list, document] : list.filter((item) => item !== document)));

  return (
    <div className="page auto-print-page">
      <PageHeader title={t('auto_print.title')} intro={t('auto_print.intro')} />
      <fieldset className="auto-print-settings" disabled={running !== null}>
        <SelectField
          label={t('auto_print.state')}
          value={state}
          onChange={(event) => setState(event.target.value as AutoPrintState)}
          options={AUTO_PRINT_STATE_LIST.map((value) => ({ value, label: tOrders(`statuses.${value}`) }))}
        />
        <div className="field">
          <span className="label">{t('auto_print.documents')}</span>
          {PRINT_DOCUMENTS.map((document) => (
            <CheckboxField
              key={document}
              label={t(`documents.${document}`)}
              checked={documents.includes(document)}
              onChange={(event) => toggle(document, event.target.checked)}
            />
          ))}
        </div>
      </fieldset>
      <div className="print-actions">
        {running ? (
          <button type="button" className="button" onClick={stop}>
            {t('auto_print.stop')}
          </button>
        ) : (
          <button
            type="button"
            className="button button-primary"
            disabled={documents.length === 0}
            onClick={start}
          >
            {t('auto_print.start')}
          </button>
        )}
      </div>
      <p className="muted" role="status">
        {running
          ? t('auto_print.running', {
              state: tOrders(`statuses.${running.state}`),
              since: dateTime(running.since),
            })
          : t('auto_print.stopped')}
      </p>
      {error && <FormMessage kind="error">{error}</FormMessage>}
      <h2>{t('auto_print.printed')}</h2>
      {printed.length === 0 ? (
        <p className="muted">{t('auto_print.none_yet')}</p>
      ) : (
        <ul className="auto-print-log">
          {printed.map((entry) => (
            <li key={`${entry.at}-${entry.document}-${entry.orders[0]}`}>
              {t('auto_print.entry', {
                at: dateTime(entry.at),
                document: t(`documents.${entry.document}`),
                count: entry.orders.length,
                orders: entry.orders.join(', '),
              })}
            </li>
          ))}
        </ul>
      )}
      {pdf && (
        <>
          <div className="print-actions">
            <button type="button" className="button" onClick={printFrame}>
              {t('print.print')}
            </button>
            <a className="button" href={pdf} download="auto-print.pdf">
              {t('print.download')}
            </a>
          </div>
          <iframe
            ref={frame}
            className="print-frame"
            src={pdf}
            title={t('auto_print.title')}
            onLoad={printFrame}
          />
        </>
      )}
    </div>
  );
}
