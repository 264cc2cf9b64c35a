import { z } from 'zod';

/** POST /oauth/token (OAuth 2.0 password grant), answering in OAuth's own shape; the sign-in unlock link. */

/**
 * The console's OAuth client id: a public client (OAuth 2.1 treats browser apps so), known to the build and sent
 * without a secret. Only a confidential client (OAUTH_CLIENT_ID, for scripts) proves itself with a secret.
 */
export const CONSOLE_CLIENT_ID = 'kedai-console';

export const TokenRequest = z.object({
  grant_type: z.string().max(64),
  client_id: z.string().max(200),
  client_secret: z.string().max(200).optional(),
  username: z.string().max(254),
  password: z.string().max(200),
  scope: z.enum(['admin', '']).optional(),
});
export type TokenRequest = z.infer<typeof TokenRequest>;

export const TokenAnswer = z.object({
  access_token: z.string(),
  token_type: z.literal('Bearer'),
  expires_in: z.number().int(),
});
export type TokenAnswer = z.infer<typeof TokenAnswer>;

export const OAuthError = z.object({
  error: z.enum([
    'invalid_request',
    'invalid_client',
    'invalid_grant',
    'unsupported_grant_type',
    'email_not_verified',
    'too_many_attempts',
    'unlock_required',
  ]),
  error_description: z.string(),
});
export type OAuthError = z.infer<typeof OAuthError>;

/** POST /api/sign-in/unlock: the token of an e-mailed unlock link. */
export const UnlockRequest = z.object({ token: z.string().min(1).max(200) });
export type UnlockRequest = z.infer<typeof UnlockRequest>;
