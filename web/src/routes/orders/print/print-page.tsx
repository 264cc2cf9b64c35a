import {
  fetchPdf,
  isPrintDocument,
  isPrintOrigin,
  MAX_PRINT_ORDERS,
  type PrintDocument,
  type PrintOrigin,
} from '@web/api/printing';
import { FormMessage, messageOf } from '@web/shell/form';
import { PageHeader } from '@web/shell/page';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import './printing.css';

/**
 * /orders/print?document=AWB|INV|PL|CL|DO&origin=unscan|smart_scan|shipped|processed&ids=<id,id,…>: prints the
 * document of the orders once (each print is recorded on the orders and in the print log) and shows the PDF with
 * buttons to print it and to save it. A refusal (another account's order, the one-print limit, "Failed Print
 * Airway Bill"…) is shown as the server says it.
 */

type State =
  | { kind: 'loading' }
  | { kind: 'ready'; url: string; fileName: string }
  | { kind: 'failed'; message: string };

export default function PrintPage() {
  const { t } = useTranslation('printing');
  const [params] = useSearchParams();
  const document = params.get('document');
  const origin = params.get('origin');
  const idsText = params.get('ids') ?? '';
  const ids = useMemo(
    () =>
      idsText
        .split(',')
        .map((id) => id.trim())
        .filter(Boolean),
    [idsText],
  );
  const valid =
    isPrintDocument(document) && isPrintOrigin(origin) && ids.length > 0 && ids.length <= MAX_PRINT_ORDERS;
  const [state, setState] = useState<State>({ kind: 'loading' });
  const frame = useRef<HTMLIFrameElement>(null);
  /** The request printed (once: a print is recorded, so a second render must not print again). */
  const started = useRef<string | null>(null);
  const objectUrl = useRef<string | null>(null);
  const key = params.toString();

  useEffect(() => {
    if (!valid || started.current === key) return;
    started.current = key;
    setState({ kind: 'loading' });
    fetchPdf(document as PrintDocument, ids, origin as PrintOrigin).then(
      ({ blob, fileName }) => {
        if (objectUrl.current) URL.revokeObjectURL(objectUrl.current);
        objectUrl.current = URL.createObjectURL(blob);
        setState({ kind: 'ready', url: objectUrl.current, fileName });
      },
      (error: unknown) => setState({ kind: 'failed', message: messageOf(error) }),
    );
  }, [key, valid, document, origin, ids]);
  useEffect(
    () => () => {
      if (objectUrl.current) URL.revokeObjectURL(objectUrl.current);
    },
    [],
  );

  const title = valid
    ? t('print.title_for', { document: t(`documents.${document}`), count: ids.length })
    : t('print.title');
  return (
    <div className="page print-page">
      <PageHeader title={title} intro={valid ? t(`origins.${origin}`) : undefined}>
        {state.kind === 'ready' && (
          <div className="print-actions">
            <button
              type="button"
              className="button button-primary"
              onClick={() => frame.current?.contentWindow?.print()}
            >
              {t('print.print')}
            </button>
            <a className="button" href={state.url} download={state.fileName}>
              {t('print.download')}
            </a>
          </div>
        )}
      </PageHeader>
      {!valid && <FormMessage kind="error">{t('print.invalid_request')}</FormMessage>}
      {valid && state.kind === 'loading' && (
        <p className="muted" role="status">
          {t('print.loading', { count: ids.length })}
        </p>
      )}
      {valid && state.kind === 'failed' && <FormMessage kind="error">{state.message}</FormMessage>}
      {state.kind === 'ready' && <iframe ref={frame} className="print-frame" src={state.url} title={title} />}
    </div>
  );
}
