import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';

/**
 * The webhook measurement's receiver (webhooks.ts), in a process of its own as an integrator's server is on a machine
 * of its own: it answers every POST 200 at once and reports, every 10 ms,
 *
 *   { kind: 'ready', url }                        once it listens
 *   { kind: 'acks', acks: [[webhookId, at]…] }    the webhooks it acknowledged
 *
 * `at` on the clock both processes share (performance.timeOrigin + performance.now()).
 */

export type ReceiverToBench = { kind: 'ready'; url: string } | { kind: 'acks'; acks: [string, number][] };

if (!process.send) throw new Error('webhooks-receiver.ts is forked by the bench');
const send = (message: ReceiverToBench) => process.send!(message);

let acks: [string, number][] = [];
const server = http.createServer((request, response) => {
  request.resume();
  request.on('end', () => {
    response.writeHead(200).end();
    acks.push([String(request.headers['webhook-id']), performance.timeOrigin + performance.now()]);
  });
});
server.listen(0, '127.0.0.1', () =>
  send({ kind: 'ready', url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks` }),
);
setInterval(() => {
  if (acks.length === 0) return;
  send({ kind: 'acks', acks });
  acks = [];
}, 10);
process.on('SIGTERM', () => process.exit(0));
