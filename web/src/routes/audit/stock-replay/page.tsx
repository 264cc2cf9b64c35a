import { STOCK_FIGURES } from '@api/contracts/audit';
import { documentReplayPath, downloadStockReplay, type StockStep, useStockReplay } from '@web/api/audit';
import { FormMessage, messageOf } from '@web/shell/form';
import { dateTimeFormatter } from '@web/shell/format';
import { type FormEvent, useEffect, useId, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router-dom';
import { MasterCodePicker, type PickedMasterCode } from '../../inventory/stock-common/master-code-picker';
import { PlaceSelect } from '../../inventory/stock-common/place-select';
import { actionName, sourceName } from '../../inventory/stock-movement/use-movement-columns';
import { ReplayTimeline, SignedExport, Stepper, VerifyFile } from '../replay-common';
import '../../inventory/stock-common/stock.css';

/**
 * The auditor's replay of one stock (a master code in a warehouse): its events oldest first, a page at a time, and
 * a step-through that shows, at each event, who did it and when, why, the document behind it (a link to that
 * document's own replay) and every figure before and after. The stock lives in the address (from the stock list's
 * "Replay" link), so a replay can be shared; the signed CSV holds the whole history.
 */

const PAGE = 200;
const FIGURES = STOCK_FIGURES;

const after = (step: StockStep, figure: (typeof FIGURES)[number]) =>
  figure === 'on_hand' ? step.movement.new_stock : step.movement[figure];

export default function StockReplayPage() {
  const { t, i18n } = useTranslation(['audit', 'stock']);
  // The stock screens' own words for actions (their `t` reads the stock namespace by default).
  const { t: stockT } = useTranslation('stock');
  const id = useId();
  const [params, setParams] = useSearchParams();
  const masterCodeId = params.get('master_code_id');
  const warehouseId = params.get('warehouse_id');
  const from = Math.max(0, Number(params.get('from') ?? 0) || 0);
  const query = useMemo(
    () =>
      masterCodeId && warehouseId
        ? { master_code_id: masterCodeId, warehouse_id: warehouseId, from, limit: PAGE }
        : null,
    [masterCodeId, warehouseId, from],
  );
  const replay = useStockReplay(query);
  const steps = replay.data?.steps ?? [];
  const [index, setIndex] = useState(0);
  // A new page starts at its first step (its last when going back to an earlier page).
  const backwards = params.get('end') === '1';
  const pageKey = `${masterCodeId}|${warehouseId}|${replay.data?.from}|${backwards}`;
  // biome-ignore lint/correctness/useExhaustiveDependencies: only a new page moves the step, not a refetch of this one
  useEffect(() => {
    setIndex(backwards ? Math.max(0, steps.length - 1) : 0);
  }, [pageKey]);

  const [picked, setPicked] = useState<PickedMasterCode | null>(null);
  const [place, setPlace] = useState('');
  function choose(event: FormEvent) {
    event.preventDefault();
    if (picked && place) setParams(new URLSearchParams({ master_code_id: picked.id, warehouse_id: place }));
  }
  const goTo = (nextFrom: number, end = false) => {
    const next = new URLSearchParams(params);
    next.set('from', String(nextFrom));
    if (end) next.set('end', '1');
    else next.delete('end');
    setParams(next);
  };

  const number = new Intl.NumberFormat(i18n.language);
  const signed = new Intl.NumberFormat(i18n.language, { signDisplay: 'exceptZero' });
  const dateTime = dateTimeFormatter(i18n.language, { seconds: true });
  const step = steps[index];
  const target = replay.data;

  return (
    <div className="page management-page stock-page">
      <div className="page-header">
        <div>
          <h1 className="page-title">{t('audit:stock.title')}</h1>
          <p className="muted">{t('audit:stock.intro')}</p>
        </div>
        {query && (
          <SignedExport
            download={() =>
              downloadStockReplay({ master_code_id: query.master_code_id, warehouse_id: query.warehouse_id })
            }
          />
        )}
      </div>

      {!query && (
        <form className="card form" onSubmit={choose} aria-label={t('audit:stock.choose')}>
          <div className="form-grid">
            <MasterCodePicker
              label={t('stock:history.fields.master_code')}
              value={picked}
              onChange={setPicked}
              type="standard"
              required
            />
            <PlaceSelect
              label={t('stock:history.fields.warehouse')}
              value={place}
              onChange={setPlace}
              required
            />
          </div>
          <div className="form-actions">
            <button type="submit" className="button button-primary" disabled={!picked || !place}>
              {t('audit:stock.show')}
            </button>
          </div>
        </form>
      )}

      {replay.isError && <FormMessage kind="error">{messageOf(replay.error)}</FormMessage>}

      {target && (
        <section className="card" aria-labelledby={`${id}-step`} aria-busy={replay.isFetching}>
          <h2 id={`${id}-step`}>
            {t('audit:stock.of', {
              code: target.master_code.code,
              name: target.master_code.name,
              warehouse: target.warehouse.code,
            })}
          </h2>
          {steps.length === 0 ? (
            <p className="muted">{t('audit:stock.empty')}</p>
          ) : (
            <Stepper index={index} count={steps.length} onChange={setIndex}>
              {target.from > 0 && (
                <button
                  type="button"
                  className="button"
                  onClick={() => goTo(Math.max(0, target.from - PAGE), true)}
                >
                  {t('audit:replay.earlier')}
                </button>
              )}
              {target.has_more && (
                <button type="button" className="button" onClick={() => goTo(target.from + steps.length)}>
                  {t('audit:replay.later')}
                </button>
              )}
            </Stepper>
          )}
          {step && (
            <>
              <dl className="stock-figures" data-testid="replay-event">
                <div>
                  <dt>{t('audit:stock.when')}</dt>
                  <dd data-testid="replay-when">{dateTime(step.movement.occurred_at)}</dd>
                </div>
                <div>
                  <dt>{t('audit:stock.what')}</dt>
                  <dd data-testid="replay-action">{actionName(stockT, step.movement)}</dd>
                </div>
                <div>
                  <dt>{t('audit:stock.who')}</dt>
                  <dd data-testid="replay-who">
                    {step.movement.created_by?.name ?? t('stock:movements.system')}
                  </dd>
                </div>
                <div>
                  <dt>{t('audit:stock.why')}</dt>
                  <dd>{step.movement.description ?? '—'}</dd>
                </div>
                <div>
                  <dt>{t('audit:stock.source')}</dt>
                  <dd>
                    <SourceLink source={step.movement.source} />
                  </dd>
                </div>
                <div>
                  <dt>{t('audit:stock.command')}</dt>
                  <dd className="muted">{step.command_id ?? '—'}</dd>
                </div>
              </dl>
              <table className="stock-table replay-figures">
                <caption>{t('audit:stock.figures_caption', { step: index + 1 })}</caption>
                <thead>
                  <tr>
                    <th scope="col">{t('audit:stock.figure')}</th>
                    <th scope="col" className="numeric">
                      {t('audit:stock.before')}
                    </th>
                    <th scope="col" className="numeric">
                      {t('audit:stock.after')}
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {FIGURES.map((figure) => {
                    const changed = step.before[figure] !== after(step, figure);
                    return (
                      <tr key={figure} data-testid={`figure-${figure}`}>
                        <th scope="row">{t(`stock:history.${figure}`)}</th>
                        <td className="numeric" data-testid="before">
                          {number.format(step.before[figure])}
                        </td>
                        <td className={`numeric ${changed ? 'changed' : ''}`} data-testid="after">
                          {number.format(after(step, figure))}
                        </td>
                      </tr>
                    );
                  })}
                </tbody>
              </table>
            </>
          )}
        </section>
      )}

      <ReplayTimeline
        steps={steps}
        index={index}
        onPick={setIndex}
        numberOf={(row) => row.movement.revision + 1}
        keyOf={(row) => row.event_id}
        columns={[
          { header: t('stock:movements.columns.time'), cell: (row) => dateTime(row.movement.occurred_at) },
          { header: t('stock:movements.columns.action'), cell: (row) => actionName(stockT, row.movement) },
          {
            header: t('stock:movements.columns.change'),
            numeric: true,
            cell: (row) => signed.format(row.movement.change),
          },
          {
            header: t('stock:movements.columns.new_stock'),
            numeric: true,
            cell: (row) => number.format(row.movement.new_stock),
          },
          {
            header: t('stock:movements.columns.created_by'),
            cell: (row) => row.movement.created_by?.name ?? t('stock:movements.system'),
          },
          { header: t('audit:stock.source'), cell: (row) => <SourceLink source={row.movement.source} /> },
        ]}
      />

      {query && <VerifyFile />}
    </div>
  );
}

/** The document behind a movement, linked to its replay where it has one. */
function SourceLink({ source }: { source: StockStep['movement']['source'] }) {
  const { t } = useTranslation('stock');
  if (!source) return <>—</>;
  const name = sourceName(t, source);
  const path = documentReplayPath(source);
  return path ? <Link to={path}>{name}</Link> : <span>{name}</span>;
}
