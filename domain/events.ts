import type { z } from 'zod';
import { stockEvents } from './inventory/stock';
import { systemEvents } from './platform/system';

/** Every event type the system may append, with its schema. A type missing here cannot be appended. */
export const eventSchemas: Readonly<Record<string, z.ZodType>> = {
  ...systemEvents,
  ...stockEvents,
};
