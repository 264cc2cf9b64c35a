import type { Database } from '@infra/db';
import { translate } from '@infra/i18n';
import type { LiveHub } from '@projections/runtime/live-hub';
import type { FastifyPluginAsync } from 'fastify';
import type { Kysely } from 'kysely';
import type { RawData, WebSocket } from 'ws';
import { bearerToken, loadSession, signedIn } from './auth/session';
import {
  CLOSE_SESSION_ENDED,
  CLOSE_TOO_SLOW,
  LiveClientMessage,
  type LiveServerMessage,
  MAX_VIEWS,
} from './contracts/live';

/**
 * GET /api/live: one websocket per console tab. The client names the views it shows; the server forwards the
 * projection runtime's change notices `{view, ids}` for those views of the caller's own tenant, so a screen can
 * refresh just those rows.
 *
 * Authentication is the bearer token, checked by the session plugin before the upgrade (a bad token is refused
 * with 401): the Authorization header, or from a browser, which cannot set headers on a websocket, the
 * subprotocol pair `Sec-WebSocket-Protocol: bearer, <token>` (the server then selects `bearer`). The token is
 * checked again while the socket is open; once it is revoked or expired the socket is closed with code 4401.
 *
 * Client → server: `{type:'subscribe', views}`, `{type:'unsubscribe', views}`, `{type:'ping'}`.
 * Server → client: `{type:'subscribed', views}` (every view now followed, after each (un)subscribe),
 * `{type:'change', view, ids}`, `{type:'pong'}`, `{type:'error', code, msg}` (the socket stays open).
 * The server also pings at the websocket level and drops a peer that stops answering.
 */

export { CLOSE_SESSION_ENDED, type LiveServerMessage, MAX_VIEWS } from './contracts/live';

/** A peer that lets this much pile up unread is dropped rather than buffered without end. */
const MAX_BUFFERED_BYTES = 4 * 1024 * 1024;

/** ws `handleProtocols`: a browser that authenticates by subprotocol gets `bearer` back, never its token. */
export function liveProtocol(protocols: Set<string>): string | false {
  return protocols.has('bearer') ? 'bearer' : false;
}

export interface LiveDeps {
  db: Kysely<Database>;
  hub: Pick<LiveHub, 'subscribe'>;
  /** How often an open socket's token is checked again (default 60 s). */
  tokenRecheckMs?: number;
  /** How often the server pings; a peer that has not answered the previous ping is dropped (default 30 s). */
  heartbeatMs?: number;
}

export const liveRoutes: FastifyPluginAsync<LiveDeps> = async (app, deps) => {
  const tokenRecheckMs = deps.tokenRecheckMs ?? 60_000;
  const heartbeatMs = deps.heartbeatMs ?? 30_000;

  app.get(
    '/api/live',
    {
      websocket: true,
      config: { access: 'signed-in' },
      schema: { tags: ['live'], summary: 'Live change notices for the views a console shows (websocket)' },
    },
    (socket, request) => {
      const session = signedIn(request);
      const token = bearerToken(request);
      const language = request.language;
      const views = new Set<string>();

      const send = (message: LiveServerMessage) => {
        if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(message));
      };
      const refuse = (key: string, params: Record<string, string | number> = {}) =>
        send({ type: 'error', code: 400, msg: translate(language, key, params) });

      const stopListening = deps.hub.subscribe((change) => {
        if (session.tenantId === null || change.tenantId !== session.tenantId || !views.has(change.view))
          return;
        if (socket.bufferedAmount > MAX_BUFFERED_BYTES) {
          socket.close(CLOSE_TOO_SLOW, 'too slow');
          return;
        }
        send({ type: 'change', view: change.view, ids: change.ids });
      });

      socket.on('message', (data: RawData, isBinary: boolean) => {
        const message = parseMessage(data, isBinary);
        if (!message) return refuse('live.invalid_message');
        switch (message.type) {
          case 'subscribe': {
            const added = message.views.filter((view) => !views.has(view));
            if (views.size + new Set(added).size > MAX_VIEWS) {
              return refuse('live.too_many_views', { max: MAX_VIEWS });
            }
            for (const view of added) views.add(view);
            return send({ type: 'subscribed', views: [...views] });
          }
          case 'unsubscribe':
            for (const view of message.views) views.delete(view);
            return send({ type: 'subscribed', views: [...views] });
          case 'ping':
            return send({ type: 'pong' });
          default: {
            const unknown: never = message;
            return unknown;
          }
        }
      });

      // Keepalive: a ping per period; no pong since the last one means the peer is gone.
      let answered = true;
      socket.on('pong', () => {
        answered = true;
      });
      const heartbeat = setInterval(() => {
        if (!answered) {
          socket.terminate();
          return;
        }
        answered = false;
        socket.ping();
      }, heartbeatMs);

      // A token revoked (logout) or expired while the socket is open ends the socket.
      let checking = false;
      const recheck = setInterval(async () => {
        if (checking || !token) return;
        checking = true;
        try {
          const current = await loadSession(deps.db, token);
          if (current === null) endSession(socket, language);
        } catch (error) {
          // The database being briefly unreachable is not a reason to drop the client.
          request.log.warn({ err: error }, 'live: token recheck failed');
        } finally {
          checking = false;
        }
      }, tokenRecheckMs);

      socket.on('close', () => {
        stopListening();
        clearInterval(heartbeat);
        clearInterval(recheck);
      });
    },
  );
};

function parseMessage(data: RawData, isBinary: boolean): LiveClientMessage | undefined {
  if (isBinary) return undefined;
  const text = Array.isArray(data)
    ? Buffer.concat(data).toString('utf8')
    : data instanceof ArrayBuffer
      ? Buffer.from(new Uint8Array(data)).toString('utf8')
      : data.toString('utf8');
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return undefined;
  }
  const parsed = LiveClientMessage.safeParse(json);
  return parsed.success ? parsed.data : undefined;
}

function endSession(socket: WebSocket, language: Parameters<typeof translate>[0]) {
  if (socket.readyState !== socket.OPEN) return;
  socket.send(
    JSON.stringify({
      type: 'error',
      code: 401,
      msg: translate(language, 'auth.token_invalid'),
    } satisfies LiveServerMessage),
  );
  socket.close(CLOSE_SESSION_ENDED, 'session ended');
}
