import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import http, { type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createWebhookWakeReactor } from '@commands/webhooks/wake-reactor';
import { createMailer } from '@infra/mail';
import { createKedaiWorker } from '@infra/temporal';
import { ReactorRunner } from '@projections/runtime/reactor';
import { Client, Connection } from '@temporalio/client';
import type { TestApi } from '@tests/support/api';
import { sharedTemporal } from '@tests/support/temporal';
import { createActivities } from '@workflows/activities';
import type { WebhookTiming } from '@workflows/webhook-protocol';

/** What the webhook tests share: a real local receiver, an independent signature check, a worker and the reactor. */

export interface Received {
  headers: IncomingHttpHeaders;
  body: string;
  at: number;
  /** What the receiver answered (null: it kept the request past the sender's timeout). */
  status: number | null;
}

/** How the receiver answers a request: a status, or a wait first (longer than the sender's timeout: a slow one). */
export type Behaviour = (request: { headers: IncomingHttpHeaders; body: string }) => {
  status: number;
  delayMs?: number;
};

/**
 * A webhook receiver on 127.0.0.1: records every request and answers as `behave` says (200 by default). `stop()`
 * closes it (connections too: it is down), `start()` listens again on the same port.
 */
export async function startReceiver(port = 0) {
  const received: Received[] = [];
  let behave: Behaviour = () => ({ status: 200 });
  let server: http.Server | undefined;
  let boundPort = port;
  const listen = () =>
    new Promise<void>((resolve, reject) => {
      server = http.createServer((request, response) => {
        const chunks: Buffer[] = [];
        request.on('data', (chunk: Buffer) => chunks.push(chunk));
        request.on('end', () => {
          const body = Buffer.concat(chunks).toString('utf8');
          const answer = behave({ headers: request.headers, body });
          const entry: Received = { headers: request.headers, body, at: Date.now(), status: null };
          received.push(entry);
          const reply = () => {
            if (response.destroyed) return;
            entry.status = answer.status;
            response
              .writeHead(answer.status, { 'content-type': 'text/plain' })
              .end(`answer ${answer.status}`);
          };
          if (answer.delayMs) setTimeout(reply, answer.delayMs);
          else reply();
        });
      });
      server.once('error', reject);
      server.listen(boundPort, '127.0.0.1', () => {
        boundPort = (server!.address() as AddressInfo).port;
        resolve();
      });
    });
  await listen();
  return {
    received,
    get url() {
      return `http://127.0.0.1:${boundPort}/hooks`;
    },
    behave(next: Behaviour) {
      behave = next;
    },
    /** The events acknowledged (2xx), in the order their first acknowledgement came. */
    acknowledgedIds() {
      const seen = new Set<string>();
      for (const entry of received)
        if (entry.status !== null && entry.status < 300) seen.add(String(entry.headers['webhook-id']));
      return [...seen];
    },
    async stop() {
      const closing = server;
      server = undefined;
      if (!closing) return;
      closing.closeAllConnections();
      await new Promise<void>((resolve) => closing.close(() => resolve()));
    },
    start: listen,
  };
}
export type Receiver = Awaited<ReturnType<typeof startReceiver>>;

/**
 * Standard Webhooks verification written from the spec, independently of Kedai's signer: the signed content is
 * `<webhook-id>.<webhook-timestamp>.<body>`, HMAC-SHA256 keyed with the base64-decoded part of `whsec_…`; the header
 * lists `v1,<base64>` entries separated by spaces; one must match (compared in constant time), and the timestamp
 * must be within the tolerance of now. Returns the entries that matched.
 */
export function verifyStandardWebhook(
  secret: string,
  headers: IncomingHttpHeaders,
  body: string,
  toleranceSeconds = 300,
): boolean {
  const id = headers['webhook-id'];
  const timestamp = headers['webhook-timestamp'];
  const signatures = headers['webhook-signature'];
  if (typeof id !== 'string' || typeof timestamp !== 'string' || typeof signatures !== 'string') return false;
  if (!/^\d+$/.test(timestamp) || Math.abs(Date.now() / 1000 - Number(timestamp)) > toleranceSeconds)
    return false;
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const expected = createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest();
  return signatures.split(' ').some((entry) => {
    const [version, signature] = entry.split(',');
    if (version !== 'v1' || !signature) return false;
    const given = Buffer.from(signature, 'base64');
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}

/** A Temporal client on the run's dev server and a task queue of the test's own, with the delivery timing. */
export async function connectWebhookWorkflows(webhookTiming: WebhookTiming) {
  const shared = sharedTemporal();
  const connection = await Connection.connect({ address: shared.address });
  const workflows = {
    client: new Client({ connection, namespace: shared.namespace }),
    taskQueue: `webhooks-${randomBytes(4).toString('hex')}`,
    webhookTiming,
  };
  return { connection, workflows };
}

/** A worker on the test's task queue (loopback endpoints allowed) and the wake reactor following the log live. */
export async function startWebhookWorker(
  api: TestApi,
  workflows: Awaited<ReturnType<typeof connectWebhookWorkflows>>['workflows'],
) {
  const shared = sharedTemporal();
  const db = api.database.systemDb;
  const worker = await createKedaiWorker({
    address: shared.address,
    namespace: shared.namespace,
    taskQueue: workflows.taskQueue,
    activities: createActivities({
      engine: api.engine,
      db,
      store: api.store,
      mailer: createMailer(db, { from: 'Kedai <no-reply@kedai.test>' }, { info() {}, error() {} }),
      webhookTargets: { allowLoopback: true },
    }),
    bundlePath: shared.bundlePath,
  });
  const running = worker.run();
  const reactors = new ReactorRunner({
    db,
    store: api.store,
    reactors: [createWebhookWakeReactor({ db, workflows })],
    retryMs: 50,
  });
  reactors.start();
  return {
    async stop() {
      await reactors.stop();
      await worker.shutdown();
      await running.catch(() => undefined);
    },
  };
}
