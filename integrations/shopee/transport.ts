import http from 'node:http';
import https from 'node:https';

/**
 * The client's HTTP: node's own http(s) with connections kept alive, rather than fetch. A stock push is a call per
 * item, hundreds a second in a burst; fetch's streams and abort signals cost several times the CPU of the request
 * itself, on the process that also runs the push. A request that meets a kept-alive connection the server had just
 * closed (ECONNRESET before any answer, on a reused socket) is sent once more on a fresh one: it never reached the
 * server.
 */

export interface HttpAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  bytes: Buffer;
}

export class HttpTimeout extends Error {}

const agents = {
  'http:': new http.Agent({ keepAlive: true, maxSockets: 64 }),
  'https:': new https.Agent({ keepAlive: true, maxSockets: 64 }),
};

export async function httpRequest(
  url: URL,
  init: { method: string; headers: Record<string, string>; body?: string | FormData },
  timeoutMs: number,
): Promise<HttpAnswer> {
  let body: Buffer | undefined;
  const headers = { ...init.headers };
  if (init.body instanceof FormData) {
    // The multipart encoding (boundary and all) as fetch would send it.
    const encoded = new Response(init.body);
    body = Buffer.from(await encoded.arrayBuffer());
    headers['content-type'] = encoded.headers.get('content-type') ?? 'multipart/form-data';
  } else if (init.body !== undefined) body = Buffer.from(init.body);
  if (body) headers['content-length'] = String(body.length);
  const deadline = Date.now() + timeoutMs;
  for (let attempt = 1; ; attempt++) {
    try {
      return await once(url, init.method, headers, body, deadline - Date.now());
    } catch (error) {
      if (attempt === 1 && error instanceof StaleConnection) continue;
      throw error instanceof StaleConnection ? error.cause : error;
    }
  }
}

class StaleConnection extends Error {}

function once(
  url: URL,
  method: string,
  headers: Record<string, string>,
  body: Buffer | undefined,
  timeoutMs: number,
): Promise<HttpAnswer> {
  const secure = url.protocol === 'https:';
  return new Promise((resolve, reject) => {
    const request = (secure ? https : http).request(url, {
      method,
      headers,
      agent: agents[secure ? 'https:' : 'http:'],
    });
    let answered = false;
    const timer = setTimeout(
      () => request.destroy(new HttpTimeout(`no answer within ${timeoutMs} ms`)),
      timeoutMs,
    );
    request.on('response', (response) => {
      answered = true;
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => {
        clearTimeout(timer);
        resolve({
          status: response.statusCode ?? 0,
          headers: response.headers,
          bytes: Buffer.concat(chunks),
        });
      });
      response.on('error', (error) => {
        clearTimeout(timer);
        reject(error);
      });
    });
    request.on('error', (error: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      if (!answered && request.reusedSocket && error.code === 'ECONNRESET')
        reject(new StaleConnection('stale connection', { cause: error }));
      else reject(error);
    });
    request.end(body);
  });
}
