import type { FastifySchemaCompiler } from 'fastify';
import { validatorCompiler } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { rule } from './contracts/rules';

/**
 * The validator of every route: its contract's zod schema, then one check on what the schema let through. Postgres
 * text can hold neither a NUL character nor a lone UTF-16 surrogate (the driver's encoding fails, a 500), so a string
 * carrying one, at any depth of a body, query or path parameter (a JSON-in-query filter included, after parsing), is
 * refused here with the house's validation answer naming the field, before any route's code runs.
 */
export const storableValidatorCompiler: FastifySchemaCompiler<z.ZodType> = (route) =>
  validatorCompiler({ ...route, schema: route.schema.pipe(storable) });

const unstorableMessage = rule(400, 'common.unstorable_text');

const storable = z.unknown().superRefine((value, ctx) => {
  const path = unstorablePath(value, []);
  if (path)
    ctx.addIssue({ code: 'custom', path, message: unstorableMessage, params: { field: path.join('.') } });
});

/** With the `u` flag a surrogate pair is one code point, so the surrogate category matches only a lone half. */
function unstorable(text: string): boolean {
  return text.includes('\u0000') || /\p{Cs}/u.test(text);
}

/** Where the first string Postgres cannot store sits (an object's key counts as its own place), if any does. */
function unstorablePath(value: unknown, at: (string | number)[]): (string | number)[] | undefined {
  if (typeof value === 'string') return unstorable(value) ? at : undefined;
  if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) {
      const found = unstorablePath(item, [...at, index]);
      if (found) return found;
    }
    return undefined;
  }
  if (value !== null && typeof value === 'object' && !(value instanceof Date)) {
    for (const [key, item] of Object.entries(value)) {
      if (unstorable(key)) return [...at, key];
      const found = unstorablePath(item, [...at, key]);
      if (found) return found;
    }
  }
  return undefined;
}
