import { transferRequestDecider, transferRequestStreamId } from '@domain/transfers/transfer-request';
import { documentCommands } from '../support/document';

/**
 * Transfer requests (commands/support/document.ts): `handleTransferRequestCommand` loads the request's stream,
 * decides and appends — the context's command id is the idempotency key, so the same key records once and answers
 * what it recorded; `loadTransferRequest` is the request as its events leave it, with its history, oldest first.
 */
const requests = documentCommands(transferRequestStreamId, transferRequestDecider);

export const handleTransferRequestCommand = requests.handle;
export const loadTransferRequest = requests.load;
