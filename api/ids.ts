export { IdParams } from '@api/contracts/ids';
export { isUuid, UUID_PATTERN } from '@domain/platform/ids';
