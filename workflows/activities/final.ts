import { refusalOf } from '@domain/shared/errors';
import { ApplicationFailure } from '@temporalio/common';

/**
 * Runs an activity's work. A domain refusal is final: it fails the activity as non-retryable, its code the
 * failure's type and its parameters the details (retrying cannot change it); anything else is retried.
 */
export async function final<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    const refused = refusalOf(error);
    if (refused) {
      throw ApplicationFailure.create({
        type: refused.code,
        message: refused.code,
        details: [refused.params],
        nonRetryable: true,
      });
    }
    throw error;
  }
}
