import { z } from 'zod';

/**
 * The live channel's messages (GET /api/live, a websocket). Client → server: subscribe, unsubscribe, ping. Server →
 * client: subscribed, change, pong, error (the socket stays open).
 */

export const MAX_VIEWS = 50;
const MAX_VIEW_NAME = 64;

/** Close code for a session that ended while the socket was open (4000–4999 are the application's own). */
export const CLOSE_SESSION_ENDED = 4401;
/** Close code for a peer that does not read what it is sent. */
export const CLOSE_TOO_SLOW = 4408;

const ViewName = z
  .string()
  .min(1)
  .max(MAX_VIEW_NAME)
  .regex(/^[A-Za-z0-9_.:-]+$/);
const Views = z.array(ViewName).min(1).max(MAX_VIEWS);

export const LiveClientMessage = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('subscribe'), views: Views }),
  z.strictObject({ type: z.literal('unsubscribe'), views: Views }),
  z.strictObject({ type: z.literal('ping') }),
]);
export type LiveClientMessage = z.infer<typeof LiveClientMessage>;

export const LiveServerMessage = z.discriminatedUnion('type', [
  z.object({ type: z.literal('subscribed'), views: z.array(z.string()) }),
  z.object({ type: z.literal('change'), view: z.string(), ids: z.array(z.string()) }),
  z.object({ type: z.literal('pong') }),
  z.object({ type: z.literal('error'), code: z.number().int(), msg: z.string() }),
]);
export type LiveServerMessage = z.infer<typeof LiveServerMessage>;
