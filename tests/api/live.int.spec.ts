import type { AddressInfo } from 'node:net';
import { CLOSE_SESSION_ENDED, type LiveServerMessage, MAX_VIEWS } from '@api/live';
import { bearer, createSeller, createTestApi, type TestApi, type TestSeller } from '@tests/support/api';
import { waitFor } from '@tests/support/wait';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';

/**
 * GET /api/live over a real listening server with the `ws` client. Absence of a notice is shown by ordering: the
 * hub delivers synchronously and a socket keeps order, so once a later marker arrives, an earlier notice that was
 * not delivered never will be.
 */

interface Closed {
  code: number;
  reason: string;
}

class LiveClient {
  readonly messages: LiveServerMessage[] = [];
  readonly closed: Promise<Closed>;
  private readonly waiters: {
    match: (m: LiveServerMessage) => boolean;
    resolve: (m: LiveServerMessage) => void;
  }[] = [];
  private consumed = 0;

  constructor(readonly socket: WebSocket) {
    socket.on('message', (data) => {
      const message = JSON.parse(data.toString()) as LiveServerMessage;
      this.messages.push(message);
      for (const waiter of [...this.waiters]) {
        if (waiter.match(message)) {
          this.waiters.splice(this.waiters.indexOf(waiter), 1);
          waiter.resolve(message);
        }
      }
    });
    this.closed = new Promise((resolve) =>
      socket.on('close', (code, reason) => resolve({ code, reason: reason.toString() })),
    );
  }

  send(message: unknown) {
    this.socket.send(typeof message === 'string' ? message : JSON.stringify(message));
  }

  /** The next message from now on (not one already read by an earlier `next`) that matches. */
  next<T extends LiveServerMessage['type']>(
    type: T,
    match: (m: Extract<LiveServerMessage, { type: T }>) => boolean = () => true,
  ): Promise<Extract<LiveServerMessage, { type: T }>> {
    const test = (m: LiveServerMessage): m is Extract<LiveServerMessage, { type: T }> =>
      m.type === type && match(m as Extract<LiveServerMessage, { type: T }>);
    const start = this.consumed;
    const seen = this.messages.slice(start).findIndex(test);
    if (seen >= 0) {
      this.consumed = start + seen + 1;
      return Promise.resolve(this.messages[start + seen] as Extract<LiveServerMessage, { type: T }>);
    }
    return new Promise((resolve) =>
      this.waiters.push({
        match: test,
        resolve: (m) => {
          this.consumed = this.messages.length;
          resolve(m as Extract<LiveServerMessage, { type: T }>);
        },
      }),
    );
  }

  async subscribe(views: string[]) {
    this.send({ type: 'subscribe', views });
    return this.next('subscribed');
  }

  /** Changes received so far. */
  changes() {
    return this.messages.filter((m) => m.type === 'change');
  }
}

describe('GET /api/live', () => {
  let api: TestApi;
  let url: string;
  let shopA: TestSeller;
  let shopB: TestSeller;
  const open: WebSocket[] = [];
  /** Sockets currently listening to the hub (the app's hub is the test's, counted). */
  let hubListeners = 0;

  beforeAll(async () => {
    api = await createTestApi({
      overrides: {
        live: { tokenRecheckMs: 100, heartbeatMs: 200 },
        hub: {
          subscribe(listener) {
            hubListeners += 1;
            const stop = api.hub.subscribe(listener);
            return () => {
              hubListeners -= 1;
              stop();
            };
          },
        },
      },
    });
    await api.app.listen({ port: 0, host: '127.0.0.1' });
    url = `ws://127.0.0.1:${(api.app.server.address() as AddressInfo).port}/api/live`;
    shopA = await createSeller(api);
    shopB = await createSeller(api);
  });
  afterEach(async () => {
    for (const socket of open.splice(0)) socket.terminate();
    await waitFor(() => hubListeners === 0, { what: 'the server to drop closed sockets' });
  });
  afterAll(async () => {
    await api?.close();
  });

  /** Opens a socket authenticated by the Authorization header, or by the browser's subprotocol pair. */
  async function connect(
    token: string,
    opts: { via?: 'header' | 'subprotocol'; language?: string; autoPong?: boolean } = {},
  ): Promise<LiveClient> {
    const socket =
      opts.via === 'subprotocol'
        ? new WebSocket(url, ['bearer', token], {
            headers: opts.language ? { language: opts.language } : {},
            autoPong: opts.autoPong ?? true,
          })
        : new WebSocket(url, { headers: bearer(token, opts.language), autoPong: opts.autoPong ?? true });
    open.push(socket);
    const client = new LiveClient(socket);
    await new Promise<void>((resolve, reject) => {
      socket.once('open', () => resolve());
      socket.once('error', reject);
    });
    return client;
  }

  /** Tries to open a socket and reports how the upgrade was refused, once the server has closed the connection. */
  function refusal(headers: Record<string, string>, protocols?: string[]) {
    return new Promise<{ status: number; body: string }>((resolve, reject) => {
      const socket = new WebSocket(url, protocols, { headers });
      socket.on('open', () => reject(new Error('the upgrade was accepted')));
      socket.on('error', () => undefined);
      socket.on('unexpected-response', (_request, response) => {
        let body = '';
        response.on('data', (chunk: Buffer) => {
          body += chunk.toString();
        });
        const ended = new Promise((end) => response.on('end', end));
        const closed = new Promise((close) => response.socket.on('close', close));
        void Promise.all([ended, closed]).then(() => resolve({ status: response.statusCode ?? 0, body }));
      });
    });
  }

  it('refuses the upgrade with 401 without a token or with a bad one', async () => {
    const none = await refusal({});
    expect(none.status).toBe(401);
    expect(JSON.parse(none.body)).toEqual({ code: 401, msg: 'Please sign in.' });

    const made = await refusal({ authorization: 'Bearer made-up-token' });
    expect(made.status).toBe(401);
    expect(JSON.parse(made.body)).toMatchObject({ code: 401 });

    expect((await refusal({}, ['bearer', 'made-up-token'])).status).toBe(401);
    expect((await refusal({}, ['bearer'])).status).toBe(401);
  });

  it('delivers a change only to the sockets of its own tenant', async () => {
    const a = await connect(shopA.token);
    const b = await connect(shopB.token);
    expect(await a.subscribe(['orders'])).toEqual({ type: 'subscribed', views: ['orders'] });
    expect(await b.subscribe(['orders'])).toEqual({ type: 'subscribed', views: ['orders'] });

    api.hub.publish([{ tenantId: shopA.tenantId, view: 'orders', ids: ['1'] }]);
    expect(await a.next('change')).toEqual({ type: 'change', view: 'orders', ids: ['1'] });

    api.hub.publish([{ tenantId: shopB.tenantId, view: 'orders', ids: ['b-1'] }]);
    expect(await b.next('change')).toEqual({ type: 'change', view: 'orders', ids: ['b-1'] });
    expect(b.changes()).toEqual([{ type: 'change', view: 'orders', ids: ['b-1'] }]);

    api.hub.publish([{ tenantId: shopA.tenantId, view: 'orders', ids: ['2'] }]);
    await a.next('change', (m) => m.ids[0] === '2');
    expect(a.changes().map((m) => m.ids)).toEqual([['1'], ['2']]);
  });

  it('delivers only the views a socket follows, and stops after unsubscribe', async () => {
    const a = await connect(shopA.token);
    expect(await a.subscribe(['orders', 'stock', 'orders'])).toEqual({
      type: 'subscribed',
      views: ['orders', 'stock'],
    });

    api.hub.publish([
      { tenantId: shopA.tenantId, view: 'products', ids: ['p1'] },
      { tenantId: shopA.tenantId, view: 'stock', ids: ['s1'] },
    ]);
    expect(await a.next('change')).toEqual({ type: 'change', view: 'stock', ids: ['s1'] });

    a.send({ type: 'unsubscribe', views: ['stock'] });
    expect(await a.next('subscribed')).toEqual({ type: 'subscribed', views: ['orders'] });

    api.hub.publish([
      { tenantId: shopA.tenantId, view: 'stock', ids: ['s2'] },
      { tenantId: shopA.tenantId, view: 'orders', ids: ['marker'] },
    ]);
    await a.next('change', (m) => m.ids[0] === 'marker');
    expect(a.changes().map((m) => `${m.view}:${m.ids.join(',')}`)).toEqual(['stock:s1', 'orders:marker']);
  });

  it('authenticates a browser by the subprotocol pair and selects bearer', async () => {
    const browser = await connect(shopA.token, { via: 'subprotocol' });
    expect(browser.socket.protocol).toBe('bearer');
    await browser.subscribe(['orders']);
    api.hub.publish([{ tenantId: shopA.tenantId, view: 'orders', ids: ['42'] }]);
    expect(await browser.next('change')).toEqual({ type: 'change', view: 'orders', ids: ['42'] });
  });

  it('answers bad messages with an error and stays open', async () => {
    const a = await connect(shopA.token);
    const bad: unknown[] = [
      'not json',
      { type: 'subscribe' },
      { type: 'subscribe', views: [] },
      { type: 'subscribe', views: 'orders' },
      { type: 'subscribe', views: ['x'.repeat(65)] },
      { type: 'subscribe', views: ['orders; drop'] },
      { type: 'subscribe', views: ['orders'], extra: true },
      { type: 'shout' },
      [1, 2, 3],
      null,
    ];
    for (const message of bad) {
      a.send(typeof message === 'string' ? message : JSON.stringify(message));
      expect(await a.next('error')).toEqual({
        type: 'error',
        code: 400,
        msg: 'The message is not a valid live request.',
      });
    }
    a.socket.send(Buffer.from([1, 2, 3]), { binary: true });
    expect(await a.next('error')).toMatchObject({ code: 400 });

    a.send({ type: 'ping' });
    expect(await a.next('pong')).toEqual({ type: 'pong' });
    expect(a.socket.readyState).toBe(WebSocket.OPEN);
  });

  it('answers in the language of the upgrade request', async () => {
    const a = await connect(shopA.token, { language: 'zh-cn' });
    a.send('{');
    expect(await a.next('error')).toEqual({ type: 'error', code: 400, msg: '该消息不是有效的实时请求。' });
  });

  it(`limits a socket to ${MAX_VIEWS} views`, async () => {
    const a = await connect(shopA.token);
    const views = Array.from({ length: MAX_VIEWS }, (_, i) => `view-${i}`);
    a.send({ type: 'subscribe', views: [...views, 'one-too-many'] });
    expect(await a.next('error')).toMatchObject({ code: 400 });

    expect((await a.subscribe(views)).views).toHaveLength(MAX_VIEWS);
    a.send({ type: 'subscribe', views: ['one-too-many'] });
    expect(await a.next('error')).toEqual({
      type: 'error',
      code: 400,
      msg: `A connection may follow at most ${MAX_VIEWS} views.`,
    });
    // Views already followed are no addition.
    expect((await a.subscribe(['view-0'])).views).toHaveLength(MAX_VIEWS);
  });

  it('closes the socket with 4401 once its token is revoked', async () => {
    const seller = await createSeller(api);
    const a = await connect(seller.token);
    await a.subscribe(['orders']);

    const logout = await api.app.inject({
      method: 'POST',
      url: '/api/logout',
      headers: bearer(seller.token),
    });
    expect(logout.statusCode).toBe(200);

    expect(await a.closed).toEqual({ code: CLOSE_SESSION_ENDED, reason: 'session ended' });
    expect(a.messages.at(-1)).toMatchObject({ type: 'error', code: 401 });
  });

  it('pings, keeps a peer that answers and drops one that does not', async () => {
    const answering = await connect(shopA.token);
    const silent = await connect(shopA.token, { autoPong: false });
    let pings = 0;
    const pinged = new Promise<void>((resolve) =>
      answering.socket.on('ping', () => {
        pings += 1;
        if (pings === 3) resolve();
      }),
    );

    const dropped = await silent.closed;
    expect(dropped.code).toBe(1006);
    await pinged;
    expect(answering.socket.readyState).toBe(WebSocket.OPEN);
  });

  it('stops listening to the hub when the socket closes', async () => {
    const a = await connect(shopA.token);
    const b = await connect(shopB.token);
    expect(hubListeners).toBe(2);
    a.socket.close();
    await a.closed;
    await waitFor(() => hubListeners === 1, { what: 'the hub listener to go' });
    expect(b.socket.readyState).toBe(WebSocket.OPEN);
  });
});
