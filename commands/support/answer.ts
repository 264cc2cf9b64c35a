import type { MessageParams } from '@infra/i18n';

/** What a use case answers whoever ran it: the data, the message's key, and the message's params. */
export type Answered<T> = [data: T, message: string, params?: MessageParams];
