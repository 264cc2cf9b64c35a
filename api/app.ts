import type { Config } from '@infra/config';
import Fastify, { type FastifyError, type FastifyReply, type FastifyRequest } from 'fastify';
import {
  hasZodFastifySchemaValidationErrors,
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import { z } from 'zod';
import { type HealthDeps, healthRoutes } from './health';

/**
 * The HTTP API: one Fastify instance, zod schemas on every route (validation, typing, and later OpenAPI), one
 * error handler that turns any failure into the `{ code, msg }` answer of the spec, one plugin per resource.
 */

export interface AppDeps extends HealthDeps {
  logLevel: Config['logLevel'];
}

/** What a failed request answers: `code` is the HTTP status or the catalogue's code; `errors` lists bad fields. */
export const ErrorAnswer = z.object({
  code: z.number().int(),
  msg: z.string(),
  errors: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
});
export type ErrorAnswer = z.infer<typeof ErrorAnswer>;

export type KedaiApp = ReturnType<typeof buildApp>;

export function buildApp(deps: AppDeps) {
  const app = Fastify({ logger: { level: deps.logLevel } }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.setErrorHandler(handleError);
  app.setNotFoundHandler((_request, reply) => reply.code(404).send(notFound));

  app.register(healthRoutes, deps);
  return app;
}

const notFound: ErrorAnswer = { code: 404, msg: 'Not found' };

/** Zod validation → 400 with the bad fields; an error that carries a 4xx → that status; anything else → a 500. */
function handleError(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  if (hasZodFastifySchemaValidationErrors(error)) {
    const where = error.validationContext ?? 'request';
    const errors = error.validation.map((issue) => ({
      path: `${where}${issue.instancePath === '/' ? '' : issue.instancePath}`,
      message: issue.message ?? 'is invalid',
    }));
    return reply.code(400).send({ code: 400, msg: `The ${where} is invalid.`, errors } satisfies ErrorAnswer);
  }
  const status = error.statusCode ?? 500;
  if (status >= 400 && status < 500) {
    return reply.code(status).send({ code: status, msg: error.message } satisfies ErrorAnswer);
  }
  // A 5xx is a bug: the log gets the details, the caller nothing it could learn the internals from.
  request.log.error({ err: error }, 'request failed');
  return reply.code(500).send({ code: 500, msg: 'Internal error' } satisfies ErrorAnswer);
}
