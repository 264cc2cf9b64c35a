import { once } from 'node:events';
import net from 'node:net';
import { freePort } from '@infra/embedded/ports';
import { createTestApi, type TestApi } from '@tests/support/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * Issue 13, item 5: a client that starts a request and never finishes it loses its socket, with a 408, once the
 * configured time is up, instead of holding it for minutes.
 */

const TIMEOUT_MS = 1_000;

describe('request timeouts', () => {
  let api: TestApi;
  let port: number;

  beforeAll(async () => {
    api = await createTestApi({
      overrides: {
        timeouts: { requestMs: TIMEOUT_MS, headersMs: TIMEOUT_MS, idleMs: 60_000, keepAliveMs: 5_000 },
      },
    });
    port = await freePort();
    await api.app.listen({ host: '127.0.0.1', port });
  });
  afterAll(async () => {
    await api?.close();
  });

  /** Writes `text` and never more; resolves with what the server answered and how long until it closed the socket. */
  async function stall(text: string): Promise<{ answer: string; afterMs: number }> {
    const socket = net.connect(port, '127.0.0.1');
    await once(socket, 'connect');
    const started = Date.now();
    let answer = '';
    socket.setEncoding('utf8').on('data', (chunk: string) => {
      answer += chunk;
    });
    socket.write(text);
    await once(socket, 'close');
    return { answer, afterMs: Date.now() - started };
  }

  it('cuts off a body that never completes', async () => {
    const { answer, afterMs } = await stall(
      'POST /oauth/token HTTP/1.1\r\nHost: kedai.test\r\nContent-Type: application/json\r\n' +
        'Content-Length: 1000\r\n\r\n{"grant_type":"pass',
    );
    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
    expect(afterMs).toBeGreaterThanOrEqual(TIMEOUT_MS - 50);
    // Node checks for overdue requests every half of the headers timeout at most.
    expect(afterMs).toBeLessThan(TIMEOUT_MS * 3);
  });

  it('cuts off headers that never complete', async () => {
    const { answer, afterMs } = await stall('GET /api/health HTTP/1.1\r\nHost: kedai.test\r\nX-Slow: ');
    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
    expect(afterMs).toBeLessThan(TIMEOUT_MS * 3);
  });
});
