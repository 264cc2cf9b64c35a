import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { HttpTimeout, httpRequest } from '@integrations/shopee/transport';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * The Shopee client's HTTP (integrations/shopee/transport.ts) keeps connections alive; a server may close one just
 * as a request goes out on it. Here the server drops every second request of a connection without answering: the
 * request is sent again on a fresh connection and answered, not reported as a network failure.
 */
describe('the Shopee client transport', () => {
  let server: http.Server;
  let url: URL;
  const perSocket = new Map<Socket, number>();
  let requests = 0;

  beforeAll(async () => {
    server = http.createServer((request, response) => {
      requests++;
      const seen = (perSocket.get(request.socket) ?? 0) + 1;
      perSocket.set(request.socket, seen);
      if (request.url === '/slow') return; // never answered
      if (seen === 2) {
        request.socket.destroy();
        return;
      }
      response.setHeader('content-type', 'application/json');
      response.end(JSON.stringify({ seen }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it('sends again, once, a request a kept-alive connection dropped unanswered', async () => {
    const first = await httpRequest(url, { method: 'GET', headers: {} }, 5_000);
    expect(JSON.parse(first.bytes.toString())).toEqual({ seen: 1 });
    const before = requests;
    // Same kept-alive connection: dropped there, answered on a fresh one.
    const second = await httpRequest(url, { method: 'POST', headers: {}, body: '{}' }, 5_000);
    expect(second.status).toBe(200);
    expect(JSON.parse(second.bytes.toString())).toEqual({ seen: 1 });
    expect(requests).toBe(before + 2);
  });

  it('gives up on a request not answered in time', async () => {
    const refused = await httpRequest(new URL('/slow', url), { method: 'GET', headers: {} }, 200).catch(
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(HttpTimeout);
  });
});
