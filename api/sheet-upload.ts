import { ErrorAnswer } from '@api/answers';
import { z } from 'zod';

/** A bulk file sent as the request body itself (infra/sheets/upload.ts): its query and its refusal. */

export { UPLOAD_BODY_LIMIT, UPLOAD_TYPES, uploadBody, uploadedFile } from '@infra/sheets/upload';

/** The upload's query: the file's name (its extension decides how it is read). */
export const UploadQuery = z.strictObject({
  filename: z.string().trim().min(1).max(255).optional(),
});

/** The 400 of a file with bad rows: every bad row with its problem, nothing applied. */
export const UploadRefusal = ErrorAnswer.extend({
  rows: z
    .array(z.object({ row: z.number().int(), column: z.string().nullable(), message: z.string() }))
    .optional(),
});
