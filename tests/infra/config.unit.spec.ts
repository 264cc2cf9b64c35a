import path from 'node:path';
import { ConfigError, parseConfig } from '@infra/config';
import { describe, expect, it } from 'vitest';

describe('config', () => {
  it('embeds everything when nothing is set', () => {
    const config = parseConfig({});
    expect(config.database).toEqual({ kind: 'embedded', dir: path.resolve('.data/pg'), port: 54329 });
    expect(config.eventStore).toEqual({ kind: 'postgres' });
    expect(config.temporal.server).toMatchObject({
      kind: 'embedded',
      port: 7233,
      dbFile: path.resolve('.data/temporal.db'),
    });
    expect(config.port).toBe(3000);
  });

  it('switches to real servers when their settings are given', () => {
    const config = parseConfig({
      DATABASE_URL: 'postgres://kedai:secret@db.internal:5432/kedai',
      EVENTSTORE_URL: 'esdb://es.internal:2113?tls=false',
      TEMPORAL_ADDRESS: 'temporal.internal:7233',
      PORT: '8080',
    });
    expect(config.database).toEqual({
      kind: 'external',
      url: 'postgres://kedai:secret@db.internal:5432/kedai',
    });
    expect(config.eventStore).toEqual({ kind: 'eventstoredb', url: 'esdb://es.internal:2113?tls=false' });
    expect(config.temporal.server).toEqual({ kind: 'external', address: 'temporal.internal:7233' });
    expect(config.port).toBe(8080);
  });

  it('takes the request timeouts in seconds, the headers no longer than the whole request', () => {
    expect(parseConfig({}).timeouts).toEqual({
      requestMs: 120_000,
      headersMs: 15_000,
      idleMs: 120_000,
      keepAliveMs: 72_000,
    });
    expect(
      parseConfig({ REQUEST_TIMEOUT_SECONDS: '30', HEADERS_TIMEOUT_SECONDS: '5' }).timeouts,
    ).toMatchObject({
      requestMs: 30_000,
      headersMs: 5_000,
    });
    expect(() => parseConfig({ REQUEST_TIMEOUT_SECONDS: '10', HEADERS_TIMEOUT_SECONDS: '20' })).toThrow(
      /HEADERS_TIMEOUT_SECONDS must not be longer than REQUEST_TIMEOUT_SECONDS/,
    );
  });

  it("takes the app and system roles' own logins beside DATABASE_URL, and refuses them without it", () => {
    const app = 'postgres://kedai_app:a@db.internal:5432/kedai';
    const system = 'postgres://kedai_system:s@db.internal:5432/kedai';
    const config = parseConfig({
      DATABASE_URL: 'postgres://owner:o@db.internal:5432/kedai',
      DATABASE_APP_URL: app,
      DATABASE_SYSTEM_URL: system,
    });
    expect(config.database).toMatchObject({ kind: 'external', appUrl: app, systemUrl: system });
    expect(() => parseConfig({ DATABASE_APP_URL: app })).toThrow(/DATABASE_APP_URL needs DATABASE_URL/);
  });

  it('takes the key the stores’ tokens are sealed with, or leaves it to be derived', () => {
    const key = 'a1'.repeat(32);
    expect(parseConfig({ STORE_TOKEN_KEY: key }).shopee.tokenKey).toEqual(Buffer.from(key, 'hex'));
    expect(parseConfig({}).shopee.tokenKey).toBeUndefined();
  });

  it('trusts no proxy by default, and all, a hop count or listed addresses and ranges when TRUST_PROXY says so', () => {
    expect(parseConfig({}).trustProxy).toBe(false);
    expect(parseConfig({ TRUST_PROXY: 'true' }).trustProxy).toBe(true);
    expect(parseConfig({ TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(parseConfig({ TRUST_PROXY: '10.0.0.0/8, 127.0.0.1,::1,loopback' }).trustProxy).toEqual([
      '10.0.0.0/8',
      '127.0.0.1',
      '::1',
      'loopback',
    ]);
  });

  it.each([
    ['TRUST_PROXY', 'yes'],
    ['TRUST_PROXY', '10.0.0.0/33'],
    ['DATABASE_URL', 'not-a-url'],
    ['DATABASE_URL', 'mysql://x@localhost/db'],
    ['EVENTSTORE_URL', 'http://localhost:2113'],
    ['TEMPORAL_ADDRESS', 'localhost'],
    ['PORT', '70000'],
    ['PORT', 'eighty'],
    ['LOG_LEVEL', 'loud'],
    ['STORE_TOKEN_KEY', 'abc123'],
    ['REQUEST_TIMEOUT_SECONDS', '0'],
    ['HEADERS_TIMEOUT_SECONDS', 'soon'],
  ])('refuses %s=%s with one sentence naming the setting', (setting, value) => {
    let caught: unknown;
    try {
      parseConfig({ [setting]: value });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ConfigError);
    const error = caught as ConfigError;
    expect(error.setting).toBe(setting);
    expect(error.message.startsWith(`${setting} (got "${value}")`)).toBe(true);
    expect(error.message).not.toContain('\n');
    expect(error.message.endsWith('.')).toBe(true);
    if (setting === 'PORT') expect(error.message).toContain('must be a port number from 1 to 65535');
  });
});
