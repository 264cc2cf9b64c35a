import { ApplicationFailure } from '@temporalio/workflow';

/**
 * A workflow's refusal of an update (in its validator or its handler): the domain's error code as the failure's
 * type and the message's parameters as its details. Not retryable: asking again the same way gets the same answer.
 * The API turns it into the 4xx answer of that code (api/workflows.ts `runUpdate`).
 */
export function refusal(code: string, params: Record<string, string | number> = {}): ApplicationFailure {
  return ApplicationFailure.create({ type: code, message: code, details: [params], nonRetryable: true });
}
