// The activity log is written by commands (commands/support/activity.ts); the API's own plain-table writes use it too.
export { type Activity, logActivity } from '@commands/support/activity';
