import {
  CLOSE_SESSION_ENDED,
  CLOSE_TOO_SLOW,
  LiveClientMessage,
  type LiveServerMessage,
  MAX_VIEWS,
} from '@api/contracts/live';
import { type Language, translate } from '@infra/i18n';
import type { LiveHub } from '@projections/runtime/live-hub';
import type { RawData, WebSocket } from 'ws';

/**
 * One console tab's live channel: the client names the views it shows; the runtime's change notices `{view, ids}`
 * for those views of the caller's own tenant are forwarded, so a screen can refresh just those rows. The server
 * pings at the websocket level and drops a peer that stops answering; the token is checked again while the socket
 * is open, and once it is revoked or expired the socket is closed with code 4401.
 */

/** A peer that lets this much pile up unread is dropped rather than buffered without end. */
const MAX_BUFFERED_BYTES = 4 * 1024 * 1024;

export interface LiveChannel {
  tenantId: string | null;
  language: Language;
  hub: Pick<LiveHub, 'subscribe'>;
  /** False once the token is revoked or expired. */
  stillSignedIn(): Promise<boolean>;
  log: { warn(detail: object, message: string): void };
  /** How often an open socket's token is checked again (default 60 s). */
  tokenRecheckMs?: number;
  /** How often the server pings; a peer that has not answered the previous ping is dropped (default 30 s). */
  heartbeatMs?: number;
}

export function serveLiveChannel(socket: WebSocket, channel: LiveChannel): void {
  const { tenantId, language } = channel;
  const views = new Set<string>();

  const send = (message: LiveServerMessage) => {
    if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(message));
  };
  const refuse = (key: string, params: Record<string, string | number> = {}) =>
    send({ type: 'error', code: 400, msg: translate(language, key, params) });

  const stopListening = channel.hub.subscribe((change) => {
    if (tenantId === null || change.tenantId !== tenantId || !views.has(change.view)) return;
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
  }, channel.heartbeatMs ?? 30_000);

  // A token revoked (logout) or expired while the socket is open ends the socket.
  let checking = false;
  const recheck = setInterval(async () => {
    if (checking) return;
    checking = true;
    try {
      if (!(await channel.stillSignedIn())) endSession(socket, language);
    } catch (error) {
      // The database being briefly unreachable is not a reason to drop the client.
      channel.log.warn({ err: error }, 'live: token recheck failed');
    } finally {
      checking = false;
    }
  }, channel.tokenRecheckMs ?? 60_000);

  socket.on('close', () => {
    stopListening();
    clearInterval(heartbeat);
    clearInterval(recheck);
  });
}

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

function endSession(socket: WebSocket, language: Language) {
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
