import { refusalOf } from '@domain/shared/errors';
import { translate } from '@infra/i18n';
import { ChannelError } from '@integrations/channel';
import { ApplicationFailure } from '@temporalio/common';

/** Runs an activity's work; what it throws reaches the workflow as `activityFailure` says. */
export async function final<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw activityFailure(error);
  }
}

/**
 * A failure as the workflow should take it. A domain refusal is final: non-retryable, its code the failure's type,
 * its parameters the details and its English text the message (retrying cannot change it). A channel's refusal is
 * final unless the channel says it may pass; then it is retried, after the wait the channel asked for. Anything
 * else is retried.
 */
export function activityFailure(error: unknown): unknown {
  const refused = refusalOf(error);
  if (refused) {
    return ApplicationFailure.create({
      type: refused.code,
      message: translate('en-us', refused.refusal.key, refused.params),
      details: [refused.params],
      nonRetryable: true,
    });
  }
  if (error instanceof ChannelError) {
    return ApplicationFailure.create({
      type: error.kind,
      message: error.message,
      nonRetryable: !error.retryable,
      ...(error.options.retryAfterMs !== undefined ? { nextRetryDelay: error.options.retryAfterMs } : {}),
    });
  }
  return error;
}
