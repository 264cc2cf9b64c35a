import type { IncomingMessage } from 'node:http';
import fastifyHelmet from '@fastify/helmet';
import type { FastifyPluginAsync } from 'fastify';
import fastifyPlugin from 'fastify-plugin';

/**
 * The browser-side defences of every answer (issue 13): a strict Content-Security-Policy, no framing, `nosniff`, no
 * referrer. The console's bearer token lives in localStorage, so what matters most is that no script but the
 * console's own files can run: no inline script, no eval. Styles may be inline because ag-grid's themes inject
 * their CSS as `<style>` elements at run time; a style cannot read the token.
 */

// A Host header that could not be a host (it would end up inside the policy) adds no websocket source.
const HOST = /^[A-Za-z0-9.-]+(:\d{1,5})?$|^\[[0-9A-Fa-f:.]+\](:\d{1,5})?$/;

/** The live websocket on this host: CSP Level 3 lets 'self' cover it, older browsers need it named. */
const websocketSources = (request: IncomingMessage) => {
  const host = request.headers.host ?? '';
  return HOST.test(host) ? `ws://${host} wss://${host}` : "'self'";
};

const base = {
  defaultSrc: ["'self'"],
  baseUri: ["'self'"],
  objectSrc: ["'none'"],
  frameAncestors: ["'none'"],
  formAction: ["'self'"],
  // Master codes and marketplace items may show images by URL (https only); an image cannot run code.
  imgSrc: ["'self'", 'data:', 'blob:', 'https:'],
  fontSrc: ["'self'", 'data:'],
  styleSrc: ["'self'", "'unsafe-inline'"],
};

export const consolePolicy = {
  ...base,
  scriptSrc: ["'self'"],
  scriptSrcAttr: ["'none'"],
  connectSrc: ["'self'", websocketSources],
  workerSrc: ["'self'", 'blob:'],
};

/** Swagger UI at /docs runs from its own files too; only its document's requests and images need naming. */
const docsPolicy = Object.entries({ ...base, scriptSrc: ["'self'"], scriptSrcAttr: ["'none'"] })
  .map(([name, sources]) => `${name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)} ${sources.join(' ')}`)
  .join('; ');

/** The options of @fastify/swagger-ui that put the docs under their own policy. */
export const docsSecurity = { staticCSP: docsPolicy } as const;

export const browserDefences: FastifyPluginAsync = fastifyPlugin(async (app) => {
  await app.register(fastifyHelmet, {
    // Not helmet's defaults: they add upgrade-insecure-requests, which breaks a console served over plain HTTP on a
    // LAN address.
    contentSecurityPolicy: { useDefaults: false, directives: consolePolicy },
    frameguard: { action: 'deny' },
    referrerPolicy: { policy: 'no-referrer' },
  });
});
