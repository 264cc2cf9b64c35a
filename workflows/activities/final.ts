import { DomainError } from '@domain/shared/errors';
import { ApplicationFailure } from '@temporalio/common';

/**
 * Runs an activity's work. A domain refusal is final: it fails the activity as non-retryable, its code the
 * failure's type and its parameters the details (retrying cannot change it); anything else is retried.
 */
export async function final<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof DomainError) {
      throw ApplicationFailure.create({
        type: error.code,
        message: error.code,
        details: [error.params],
        nonRetryable: true,
      });
    }
    throw error;
  }
}
