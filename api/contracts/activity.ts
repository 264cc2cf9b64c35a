import { z } from 'zod';
import { DateFilter, gridQuery, TextFilter } from './grid';

/**
 * The account's audit screens: `/user-activities-logs` (the activity log every change writes, commands/support/
 * activity.ts) and `/login_access/list` (each sign-in attempt on the account's users), both grids of ag-grid's
 * Infinite Row Model filtered by user, what happened and when.
 */

const ActingUser = z.object({ id: z.string(), name: z.string(), email: z.string() }).nullable();

export const ACTIVITY_SORTS = ['at', 'action', 'user'] as const;
export const ActivityLogQuery = gridQuery(ACTIVITY_SORTS, {
  /** The user's name or e-mail. */
  user: TextFilter,
  action: TextFilter,
  at: DateFilter,
});
export type ActivityLogQuery = z.infer<typeof ActivityLogQuery>;

export const ActivityEntry = z.object({
  id: z.string(),
  at: z.string(),
  user: ActingUser,
  action: z.string(),
  subject_type: z.string(),
  subject_id: z.string(),
  detail: z.record(z.string(), z.unknown()),
});
export type ActivityEntry = z.infer<typeof ActivityEntry>;

export const SIGN_IN_RESULTS = ['success', 'failure', 'locked'] as const;
export const SIGN_IN_SORTS = ['at', 'user', 'address', 'result'] as const;
/** The result is picked beside the grid (its filter is a choice, not a column's text), so it is a query field. */
export const SignInLogQuery = gridQuery(SIGN_IN_SORTS, {
  user: TextFilter,
  address: TextFilter,
  at: DateFilter,
}).extend({ result: z.enum(SIGN_IN_RESULTS).optional() });
export type SignInLogQuery = z.infer<typeof SignInLogQuery>;

export const SignInEntry = z.object({
  id: z.string(),
  at: z.string(),
  user: ActingUser,
  /** What was typed to sign in (the e-mail or the username). */
  login: z.string(),
  address: z.string(),
  /** The device: the browser's or app's User-Agent. */
  user_agent: z.string(),
  result: z.enum(SIGN_IN_RESULTS),
});
export type SignInEntry = z.infer<typeof SignInEntry>;
