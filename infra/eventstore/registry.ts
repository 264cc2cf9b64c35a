import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import { EventValidationError } from './errors';
import { EventMetadata, type NewEvent } from './port';

/**
 * The schemas of every event type the system may append. Adapters call `prepare` before anything reaches the
 * store, so an event that fails its schema, or whose type nobody declared, is refused with nothing written.
 */
export class EventSchemaRegistry {
  private readonly schemas = new Map<string, z.ZodType>();

  register(type: string, schema: z.ZodType): this {
    const existing = this.schemas.get(type);
    if (existing && existing !== schema) throw new Error(`event type ${type} is already registered`);
    this.schemas.set(type, schema);
    return this;
  }

  registerAll(schemas: Readonly<Record<string, z.ZodType>>): this {
    for (const [type, schema] of Object.entries(schemas)) this.register(type, schema);
    return this;
  }

  has(type: string): boolean {
    return this.schemas.has(type);
  }

  /** Validates data and metadata and assigns missing event ids; returns the events as they will be stored. */
  prepare(events: readonly NewEvent[]): Required<NewEvent>[] {
    if (events.length === 0) throw new Error('append needs at least one event');
    return events.map((event) => {
      const schema = this.schemas.get(event.type);
      if (!schema) throw new EventValidationError(event.type, [{ path: '', message: 'unknown event type' }]);
      const data = schema.safeParse(event.data);
      if (!data.success) throw new EventValidationError(event.type, issuesOf(data.error, 'data'));
      const metadata = EventMetadata.safeParse(event.metadata);
      if (!metadata.success) throw new EventValidationError(event.type, issuesOf(metadata.error, 'metadata'));
      if (event.id !== undefined && !UUID.test(event.id)) {
        throw new EventValidationError(event.type, [{ path: 'id', message: 'must be a UUID' }]);
      }
      return { id: event.id ?? randomUUID(), type: event.type, data: data.data, metadata: metadata.data };
    });
  }
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function issuesOf(error: z.ZodError, root: string) {
  return error.issues.map((issue) => ({
    path: [root, ...issue.path.map(String)].join('.'),
    message: issue.message,
  }));
}
