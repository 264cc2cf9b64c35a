import type { Projection } from './runtime/projection';
import { stockProjection } from './stock';
import { streamCatalogue } from './stream-catalogue';

/** Every read model the runtime keeps; `npm run projections -- rebuild <name>` takes these names. */
export const projections: readonly Projection[] = [streamCatalogue, stockProjection];
