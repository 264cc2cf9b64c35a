import { z } from 'zod';

/**
 * The platform's own stream: one event each time an instance starts, so a fresh install has a history to
 * replay and an operator can see when and where Kedai ran. Tenant "system" owns it.
 */

export const SYSTEM_TENANT = 'system';

export const SystemStarted = z
  .object({
    version: z.string().min(1),
    node: z.string().min(1),
    host: z.string().min(1),
    eventStore: z.enum(['postgres', 'eventstoredb']),
  })
  .strict();
export type SystemStarted = z.infer<typeof SystemStarted>;

export const systemEvents = { SystemStarted } as const;

export const systemStreamId = (instance: string) => `system-${SYSTEM_TENANT}.${instance}`;
