import { readFile } from 'node:fs/promises';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyPluginAsync } from 'fastify';

/**
 * The built console (web/dist) on the API's port. The root page is never cached, so the console's new-version check
 * (spec §4: the root page's script fingerprint) sees a new build; the hashed assets are cached for good. The OAuth
 * client id and secret of the console (spec §7: fixed values sent with the password grant) come from configuration
 * and are written into the root page as it is served.
 */
export const webConsole: FastifyPluginAsync<{ dir: string; clientId: string; clientSecret: string }> = async (
  app,
  opts,
) => {
  const escapeAttribute = (text: string) => text.replace(/[&"<>]/g, (c) => `&#${c.charCodeAt(0)};`);
  const indexPage = async () =>
    (await readFile(path.join(opts.dir, 'index.html'), 'utf8')).replace(
      '<meta name="kedai-client" content="" />',
      `<meta name="kedai-client" content="${escapeAttribute(`${opts.clientId}:${opts.clientSecret}`)}" />`,
    );

  await app.register(fastifyStatic, {
    root: opts.dir,
    index: false,
    wildcard: true,
    setHeaders(response, file) {
      if (file.includes(`${path.sep}assets${path.sep}`)) {
        response.header('cache-control', 'public, max-age=31536000, immutable');
      }
    },
  });
  app.get('/', { schema: { hide: true } }, async (_request, reply) =>
    reply
      .header('cache-control', 'no-cache')
      .type('text/html; charset=utf-8')
      .send(await indexPage()),
  );
};
