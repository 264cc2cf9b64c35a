import { CLOSE_SESSION_ENDED, type LiveServerMessage } from '@api/contracts/live';
import { getToken, onSessionChange } from '@web/api/client';
import { useCallback, useEffect, useRef } from 'react';

/**
 * Live change notices (api/live.ts): ONE websocket per tab to `/api/live`, opened while some screen follows a view
 * and a user is signed in. A browser cannot set headers on a websocket, so the token travels as the subprotocol
 * pair `['bearer', <token>]`. The socket reconnects with a growing, jittered delay after a drop, subscribes again
 * to every followed view, and tells each follower that notices may have been missed while it was away. Signing out
 * (the token removed, in this tab or another) closes it; a new token opens a new one.
 *
 * `useLiveView(view, onChange)` follows a view while the component is mounted: the server's
 * `{type:'change', view, ids}` calls `onChange(ids, false)`; after a reconnect `onChange([], true)` asks for a
 * full refresh.
 */

export type LiveChangeHandler = (ids: string[], missed: boolean) => void;

type ServerMessage = LiveServerMessage;
const FIRST_RETRY_MS = 500;
const MAX_RETRY_MS = 30_000;
/** How long the socket stays open after the last follower left (a navigation between two live screens). */
const IDLE_CLOSE_MS = 5_000;
/** The application-level ping: a socket whose pong does not come back in time is taken for dead. */
const PING_EVERY_MS = 25_000;
const PONG_WITHIN_MS = 10_000;

export function liveUrl(location: Pick<Location, 'protocol' | 'host'> = window.location): string {
  return `${location.protocol === 'https:' ? 'wss:' : 'ws:'}//${location.host}/api/live`;
}

class LiveConnection {
  private socket: WebSocket | null = null;
  private token: string | null = null;
  private readonly followers = new Map<string, Set<LiveChangeHandler>>();
  private attempt = 0;
  private retryTimer: ReturnType<typeof setTimeout> | undefined;
  private idleTimer: ReturnType<typeof setTimeout> | undefined;
  private pingTimer: ReturnType<typeof setInterval> | undefined;
  private pongTimer: ReturnType<typeof setTimeout> | undefined;
  /** Set once a socket was open: the next open is a reconnect, and followers may have missed notices. */
  private wasOpen = false;
  /** The server ended the session: no reconnect until the token changes. */
  private sessionEnded = false;
  private stopWatchingSession: (() => void) | null = null;

  follow(view: string, handler: LiveChangeHandler): () => void {
    this.watchSession();
    clearTimeout(this.idleTimer);
    let handlers = this.followers.get(view);
    const firstForView = !handlers;
    if (!handlers) {
      handlers = new Set();
      this.followers.set(view, handlers);
    }
    handlers.add(handler);
    if (firstForView) this.send({ type: 'subscribe', views: [view] });
    this.ensureOpen();
    return () => this.unfollow(view, handler);
  }

  private unfollow(view: string, handler: LiveChangeHandler) {
    const handlers = this.followers.get(view);
    if (!handlers) return;
    handlers.delete(handler);
    if (handlers.size > 0) return;
    this.followers.delete(view);
    this.send({ type: 'unsubscribe', views: [view] });
    if (this.followers.size === 0) {
      clearTimeout(this.idleTimer);
      this.idleTimer = setTimeout(() => {
        if (this.followers.size === 0) this.close();
      }, IDLE_CLOSE_MS);
    }
  }

  private watchSession() {
    if (this.stopWatchingSession) return;
    this.stopWatchingSession = onSessionChange(() => {
      const token = getToken();
      if (token === this.token) return;
      // Signed out, or another user signed in: this socket speaks for nobody any more.
      this.close();
      this.sessionEnded = false;
      this.wasOpen = false;
      this.ensureOpen();
    });
    window.addEventListener('online', () => {
      if (!this.socket && this.followers.size > 0) {
        this.attempt = 0;
        this.ensureOpen();
      }
    });
  }

  private ensureOpen() {
    if (this.socket || this.followers.size === 0 || this.sessionEnded) return;
    const token = getToken();
    if (!token) return;
    clearTimeout(this.retryTimer);
    this.retryTimer = undefined;
    this.token = token;
    let socket: WebSocket;
    try {
      socket = new WebSocket(liveUrl(), ['bearer', token]);
    } catch {
      this.scheduleRetry();
      return;
    }
    this.socket = socket;
    socket.onopen = () => {
      if (this.socket !== socket) return;
      const reconnected = this.wasOpen;
      this.attempt = 0;
      this.wasOpen = true;
      const views = [...this.followers.keys()];
      if (views.length > 0) this.send({ type: 'subscribe', views });
      this.startPinging();
      if (reconnected) for (const view of views) this.dispatch(view, [], true);
    };
    socket.onmessage = (event) => {
      if (this.socket !== socket || typeof event.data !== 'string') return;
      let message: ServerMessage;
      try {
        message = JSON.parse(event.data) as ServerMessage;
      } catch {
        return;
      }
      if (message.type === 'change' && Array.isArray(message.ids)) {
        this.dispatch(message.view, message.ids, false);
      } else if (message.type === 'pong') {
        clearTimeout(this.pongTimer);
      } else if (message.type === 'error' && message.code === 401) {
        this.sessionEnded = true;
      }
    };
    socket.onclose = (event) => {
      if (this.socket !== socket) return;
      this.socket = null;
      this.stopPinging();
      if (event.code === CLOSE_SESSION_ENDED) this.sessionEnded = true;
      this.scheduleRetry();
    };
    // An error is followed by close, which decides about the retry.
    socket.onerror = () => undefined;
  }

  private scheduleRetry() {
    if (this.followers.size === 0 || this.sessionEnded || this.retryTimer || !getToken()) return;
    const ceiling = Math.min(MAX_RETRY_MS, FIRST_RETRY_MS * 2 ** this.attempt);
    this.attempt += 1;
    const delay = ceiling / 2 + Math.random() * (ceiling / 2);
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined;
      this.ensureOpen();
    }, delay);
  }

  private startPinging() {
    this.stopPinging();
    this.pingTimer = setInterval(() => {
      const socket = this.socket;
      if (!socket || socket.readyState !== WebSocket.OPEN) return;
      this.send({ type: 'ping' });
      clearTimeout(this.pongTimer);
      this.pongTimer = setTimeout(() => {
        // No answer: a connection that died silently. Drop it; close schedules the reconnect.
        if (this.socket === socket) socket.close();
      }, PONG_WITHIN_MS);
    }, PING_EVERY_MS);
  }

  private stopPinging() {
    clearInterval(this.pingTimer);
    clearTimeout(this.pongTimer);
  }

  private dispatch(view: string, ids: string[], missed: boolean) {
    for (const handler of [...(this.followers.get(view) ?? [])]) {
      try {
        handler(ids, missed);
      } catch (error) {
        console.error(error);
      }
    }
  }

  private send(message: { type: 'subscribe' | 'unsubscribe'; views: string[] } | { type: 'ping' }) {
    const socket = this.socket;
    if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
    // A socket still connecting subscribes to every followed view when it opens.
  }

  private close() {
    clearTimeout(this.retryTimer);
    clearTimeout(this.idleTimer);
    this.retryTimer = undefined;
    this.stopPinging();
    const socket = this.socket;
    this.socket = null;
    this.token = null;
    this.attempt = 0;
    if (socket && socket.readyState !== WebSocket.CLOSED) socket.close(1000, 'done');
  }
}

let connection: LiveConnection | null = null;
const liveConnection = () => {
  connection ??= new LiveConnection();
  return connection;
};

/** Follows a live view while mounted; the latest `onChange` is called, without subscribing again. */
export function useLiveView(view: string, onChange: LiveChangeHandler) {
  const handler = useRef(onChange);
  useEffect(() => {
    handler.current = onChange;
  }, [onChange]);
  useEffect(() => liveConnection().follow(view, (ids, missed) => handler.current(ids, missed)), [view]);
}

/** Notices closer together than this are folded into one refresh (a bulk upload sends many). */
export const REFRESH_EVERY_MS = 250;

/**
 * Refreshes a screen on the live view's notices: at once for the first one, then at most once per
 * REFRESH_EVERY_MS while notices keep coming (the last one always leads to a refresh). A reconnect, which may have
 * missed notices, refreshes too.
 */
export function useLiveRefresh(view: string, refresh: () => void) {
  const last = useRef(0);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const latest = useRef(refresh);
  useEffect(() => {
    latest.current = refresh;
  }, [refresh]);
  useEffect(() => () => clearTimeout(timer.current), []);
  const onChange = useCallback(() => {
    if (timer.current) return;
    const wait = last.current + REFRESH_EVERY_MS - Date.now();
    if (wait <= 0) {
      last.current = Date.now();
      latest.current();
      return;
    }
    timer.current = setTimeout(() => {
      timer.current = undefined;
      last.current = Date.now();
      latest.current();
    }, wait);
  }, []);
  useLiveView(view, onChange);
}

/** Reads one record again whenever the live view names it, or after a reconnect that may have missed a notice. */
export function useLiveRecord(view: string, id: string, refetch: () => unknown) {
  useLiveView(
    view,
    useCallback(
      (ids: string[], missed: boolean) => {
        if (missed || ids.includes(id)) void refetch();
      },
      [id, refetch],
    ),
  );
}
