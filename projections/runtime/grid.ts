import {
  type DateCondition,
  type DateFilter,
  instant,
  type TextCondition,
  type TextFilter,
} from '@api/contracts/grid';
import { type RawBuilder, type SqlBool, sql } from 'kysely';

/**
 * The pieces every list shares (ag-grid's Infinite Row Model, ARCHITECTURE.md): text, set and date filters
 * turned into SQL conditions, the sort model into ORDER BY terms, and the page window. Every value reaches SQL as a
 * parameter; only column expressions chosen from a fixed map are spliced in.
 */

/** A page is at most this many rows, whatever endRow - startRow asks. */
export const MAX_PAGE_ROWS = 500;

export const literal = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

const combine = (parts: RawBuilder<SqlBool>[], operator: 'AND' | 'OR') =>
  sql<SqlBool>`(${sql.join(parts, operator === 'AND' ? sql` AND ` : sql` OR `)})`;

function textCondition(column: RawBuilder<string>, condition: TextCondition): RawBuilder<SqlBool> {
  const value = condition.filter ?? '';
  switch (condition.type) {
    case 'contains':
      return sql<SqlBool>`${column} ILIKE ${`%${literal(value)}%`}`;
    case 'notContains':
      return sql<SqlBool>`${column} NOT ILIKE ${`%${literal(value)}%`}`;
    case 'equals':
      return sql<SqlBool>`lower(${column}) = lower(${value})`;
    case 'notEqual':
      return sql<SqlBool>`lower(${column}) <> lower(${value})`;
    case 'startsWith':
      return sql<SqlBool>`${column} ILIKE ${`${literal(value)}%`}`;
    case 'endsWith':
      return sql<SqlBool>`${column} ILIKE ${`%${literal(value)}`}`;
    case 'blank':
      return sql<SqlBool>`${column} = ''`;
    case 'notBlank':
      return sql<SqlBool>`${column} <> ''`;
    default: {
      const unknownType: never = condition.type;
      throw new Error(`unknown text filter type ${String(unknownType)}`);
    }
  }
}

/** A text filter on a column that is never null (wrap nullable ones in coalesce). */
export function textWhere(column: RawBuilder<string>, filter: TextFilter): RawBuilder<SqlBool> {
  if ('conditions' in filter) {
    return combine(
      filter.conditions.map((condition) => textCondition(column, condition)),
      filter.operator,
    );
  }
  return textCondition(column, filter);
}

export function setWhere(column: RawBuilder<string>, values: readonly string[]): RawBuilder<SqlBool> {
  if (values.length === 0) return sql<SqlBool>`false`;
  return sql<SqlBool>`${column} IN (${sql.join(values)})`;
}

function dateCondition(column: RawBuilder<Date>, condition: DateCondition): RawBuilder<SqlBool> {
  const from = instant(condition.dateFrom);
  const to = instant(condition.dateTo);
  // A date without a time names the whole day.
  const dayAfter = (date: Date) => new Date(date.getTime() + 86_400_000);
  switch (condition.type) {
    case 'equals':
      return from
        ? sql<SqlBool>`(${column} >= ${from} AND ${column} < ${dayAfter(from)})`
        : sql<SqlBool>`true`;
    case 'notEqual':
      return from
        ? sql<SqlBool>`(${column} < ${from} OR ${column} >= ${dayAfter(from)})`
        : sql<SqlBool>`true`;
    case 'lessThan':
      return from ? sql<SqlBool>`${column} < ${from}` : sql<SqlBool>`true`;
    case 'greaterThan':
      return from ? sql<SqlBool>`${column} >= ${dayAfter(from)}` : sql<SqlBool>`true`;
    case 'inRange':
      return sql<SqlBool>`(${from ? sql`${column} >= ${from}` : sql`true`} AND ${to ? sql`${column} < ${dayAfter(to)}` : sql`true`})`;
    case 'blank':
      return sql<SqlBool>`${column} IS NULL`;
    case 'notBlank':
      return sql<SqlBool>`${column} IS NOT NULL`;
    default: {
      const unknownType: never = condition.type;
      throw new Error(`unknown date filter type ${String(unknownType)}`);
    }
  }
}

export function dateWhere(column: RawBuilder<Date>, filter: DateFilter): RawBuilder<SqlBool> {
  if ('conditions' in filter) {
    return combine(
      filter.conditions.map((condition) => dateCondition(column, condition)),
      filter.operator,
    );
  }
  return dateCondition(column, filter);
}

/** A free-text search: any of the columns contains the text. */
export function searchWhere(columns: RawBuilder<string>[], search: string): RawBuilder<SqlBool> {
  const pattern = `%${literal(search)}%`;
  return combine(
    columns.map((column) => sql<SqlBool>`${column} ILIKE ${pattern}`),
    'OR',
  );
}

/** One ORDER BY term per entry of the sort model, nulls last; the caller adds the tie-breakers. */
export function sortTerms<Column extends string>(
  sortModel: readonly { colId: Column; sort: 'asc' | 'desc' }[],
  columns: Record<Column, RawBuilder<unknown>>,
): RawBuilder<unknown>[] {
  return sortModel.map(
    ({ colId, sort }) => sql`${columns[colId]} ${sort === 'asc' ? sql`ASC` : sql`DESC`} NULLS LAST`,
  );
}

export function pageWindow(query: { startRow: number; endRow: number }): { limit: number; offset: number } {
  return {
    limit: Math.max(0, Math.min(query.endRow - query.startRow, MAX_PAGE_ROWS)),
    offset: query.startRow,
  };
}

/** The conditions joined with AND; no condition at all is true. */
export const allOf = (parts: RawBuilder<SqlBool>[]) =>
  parts.length === 0 ? sql<SqlBool>`true` : combine(parts, 'AND');
