import type { ExpectedRevision } from './port';

/** The stream was not at the revision the writer expected; nothing was appended. */
export class WrongExpectedRevisionError extends Error {
  override name = 'WrongExpectedRevisionError';
  readonly code = 'WRONG_EXPECTED_REVISION';
  constructor(
    readonly stream: string,
    readonly expected: ExpectedRevision,
    /** The stream's revision when the append was refused; 'no_stream' when it does not exist. */
    readonly actual: bigint | 'no_stream',
  ) {
    super(`Stream ${stream} is at revision ${actual}, not the expected ${expected}; nothing was appended.`);
  }
}

/** An event failed its schema (or its type is unknown); nothing was appended. */
export class EventValidationError extends Error {
  override name = 'EventValidationError';
  readonly code = 'INVALID_EVENT';
  constructor(
    readonly eventType: string,
    readonly issues: readonly { path: string; message: string }[],
  ) {
    super(
      `Event ${eventType} is invalid: ${issues.map((i) => (i.path ? `${i.path}: ${i.message}` : i.message)).join('; ')}.`,
    );
  }
}

/** An event id already stored elsewhere (another stream or another append); nothing was appended. */
export class DuplicateEventIdError extends Error {
  override name = 'DuplicateEventIdError';
  readonly code = 'DUPLICATE_EVENT_ID';
  constructor(readonly eventIds: readonly string[]) {
    super(`Event id ${eventIds.join(', ')} is already stored by a different append; nothing was appended.`);
  }
}
