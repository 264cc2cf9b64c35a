import { transferDecider, transferStreamId } from '@domain/transfers/transfer';
import { documentCommands } from '../support/document';

/**
 * Transfer documents (commands/support/document.ts): the API records a transfer's creation with
 * `handleTransferCommand`, the transfer workflow's activities everything after; the context's command id is the
 * idempotency key. `loadTransfer` is the transfer as its events leave it, with its history, oldest first.
 */
const transfers = documentCommands(transferStreamId, transferDecider);

export const handleTransferCommand = transfers.handle;
export const loadTransfer = transfers.load;
