import type { ColDef } from 'ag-grid-community';
import { type CustomFilterProps, type CustomFloatingFilterProps, useGridFilter } from 'ag-grid-react';

/**
 * Column filters for the inventory grids. The lists filter on the server, so a filter only has to produce the model
 * the endpoint reads: ag-grid's own text and date filters for text and dates, and a one-choice select (status,
 * type) that answers the set model `{ filterType: 'set', values: [value] }`, shown in the row under the headers.
 */

export interface SetModel {
  filterType: 'set';
  values: string[];
}

export interface ChoiceParams {
  /** The select's accessible name, e.g. "Filter by status". */
  label: string;
  /** The first option, meaning no filter. */
  anyLabel: string;
  choices: readonly { value: string; label: string }[];
}

function ChoiceSelect({
  params,
  model,
  onModelChange,
}: {
  params: ChoiceParams;
  model: SetModel | null;
  onModelChange(model: SetModel | null): void;
}) {
  return (
    <select
      className="input grid-choice-filter"
      aria-label={params.label}
      value={model?.values[0] ?? ''}
      onChange={(event) =>
        onModelChange(event.target.value ? { filterType: 'set', values: [event.target.value] } : null)
      }
    >
      <option value="">{params.anyLabel}</option>
      {params.choices.map((choice) => (
        <option key={choice.value} value={choice.value}>
          {choice.label}
        </option>
      ))}
    </select>
  );
}

function ChoiceFilter(props: CustomFilterProps<unknown, unknown, SetModel> & ChoiceParams) {
  // The rows are filtered on the server; nothing is left to check here.
  useGridFilter({ doesFilterPass: () => true });
  return (
    <div className="grid-filter-popup">
      <ChoiceSelect params={props} model={props.model} onModelChange={props.onModelChange} />
    </div>
  );
}

function ChoiceFloatingFilter(
  props: CustomFloatingFilterProps<never, unknown, unknown, SetModel> & { choice: ChoiceParams },
) {
  return <ChoiceSelect params={props.choice} model={props.model} onModelChange={props.onModelChange} />;
}

/** The column properties of a one-choice filter. */
export function choiceFilter<Row>(params: ChoiceParams): Partial<ColDef<Row>> {
  return {
    filter: ChoiceFilter,
    filterParams: params,
    floatingFilter: true,
    floatingFilterComponent: ChoiceFloatingFilter,
    floatingFilterComponentParams: { choice: params },
    suppressFloatingFilterButton: true,
    suppressHeaderFilterButton: true,
  };
}

const TEXT_OPTIONS = [
  'contains',
  'equals',
  'startsWith',
  'endsWith',
  'notContains',
  'notEqual',
  'blank',
  'notBlank',
];
const DATE_OPTIONS = ['equals', 'notEqual', 'lessThan', 'greaterThan', 'inRange', 'blank', 'notBlank'];

/** A text filter the endpoints understand, with its input under the header. */
export function textFilter<Row>(): Partial<ColDef<Row>> {
  return {
    filter: 'agTextColumnFilter',
    filterParams: { filterOptions: TEXT_OPTIONS, maxNumConditions: 2, debounceMs: 400 },
    floatingFilter: true,
  };
}

/** A date filter the endpoints understand. */
export function dateFilter<Row>(): Partial<ColDef<Row>> {
  return {
    filter: 'agDateColumnFilter',
    filterParams: { filterOptions: DATE_OPTIONS, maxNumConditions: 2 },
    floatingFilter: true,
  };
}

/** The active/inactive status column of the master code and combo grids, with its choice filter. */
export function statusColumn<Row extends { status: 'active' | 'inactive' }>(
  t: (key: string) => string,
  headerName: string,
): ColDef<Row> {
  return {
    colId: 'status',
    headerName,
    valueGetter: ({ data }) => (data ? t(`status.${data.status}`) : ''),
    sortable: true,
    minWidth: 130,
    ...choiceFilter<Row>({
      label: t('master_code.filters.status'),
      anyLabel: t('filters.any'),
      choices: [
        { value: 'active', label: t('status.active') },
        { value: 'inactive', label: t('status.inactive') },
      ],
    }),
  };
}
