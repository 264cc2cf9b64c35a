import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyPluginAsync } from 'fastify';

/**
 * The built console (web/dist) on the API's port. The root page is never cached, so the console's new-version check
 * (spec §4: the root page's script fingerprint) sees a new build; the hashed assets are cached for good. The page is
 * served as built: it carries no configuration and no secret (the console is a public OAuth client whose id is a
 * constant of the build, api/contracts/auth.ts), so its Content-Security-Policy needs no inline script.
 */
export const webConsole: FastifyPluginAsync<{ dir: string }> = async (app, opts) => {
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
    reply.header('cache-control', 'no-cache').sendFile('index.html', { cacheControl: false }),
  );
};
