import type { Db } from '@infra/db';
import { serveLiveChannel } from '@projections/platform/live-channel';
import type { LiveHub } from '@projections/runtime/live-hub';
import type { FastifyPluginAsync } from 'fastify';
import { bearerToken, loadSession, signedIn } from './auth/session';

/**
 * GET /api/live: one websocket per console tab (projections/platform/live-channel.ts; messages in
 * api/contracts/live.ts). The bearer token is checked by the session plugin before the upgrade (401 when bad): the
 * Authorization header, or from a browser, which cannot set headers on a websocket, the subprotocol pair
 * `Sec-WebSocket-Protocol: bearer, <token>` (the server then selects `bearer`).
 */

export { CLOSE_SESSION_ENDED, type LiveServerMessage, MAX_VIEWS } from './contracts/live';

/** ws `handleProtocols`: a browser that authenticates by subprotocol gets `bearer` back, never its token. */
export function liveProtocol(protocols: Set<string>): string | false {
  return protocols.has('bearer') ? 'bearer' : false;
}

export interface LiveDeps {
  db: Db;
  hub: Pick<LiveHub, 'subscribe'>;
  tokenRecheckMs?: number;
  heartbeatMs?: number;
}

export const liveRoutes: FastifyPluginAsync<LiveDeps> = async (app, { db, ...deps }) => {
  app.get(
    '/api/live',
    {
      websocket: true,
      config: { access: 'signed-in' },
      schema: { tags: ['live'], summary: 'Live change notices for the views a console shows (websocket)' },
    },
    (socket, request) => {
      const token = bearerToken(request);
      serveLiveChannel(socket, {
        ...deps,
        tenantId: signedIn(request).tenantId,
        language: request.language,
        stillSignedIn: async () => !token || (await loadSession(db, token)) !== null,
        log: request.log,
      });
    },
  );
};
