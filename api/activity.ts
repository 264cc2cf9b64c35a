// The activity log is written by commands (commands/support/activity.ts); routes still writing it import it here.
export { type Activity, logActivity } from '@commands/support/activity';
