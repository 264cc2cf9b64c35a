import { lookup } from 'node:dns/promises';
import { BlockList, isIP, type LookupFunction } from 'node:net';
import { checkEndpointUrl, hostOf, isLoopbackName, refuseWebhook } from '@domain/webhooks/subscriptions';

/**
 * Where a webhook may go (Standard Webhooks "Server side request forgery"): a seller's URL must not make Kedai call
 * into its own network — the cloud's metadata address, the database, a private service. Checked when the URL is
 * saved (a clear 400) and again at every connection, on the address actually dialled, so a name that resolved to a
 * public address when saved and to a private one later (DNS rebinding) still gets nothing.
 */

export interface TargetPolicy {
  /** Tests and development: http and https to this machine (127.0.0.0/8, ::1, localhost) are allowed. */
  allowLoopback: boolean;
}

const LOOPBACK = new BlockList();
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4');
LOOPBACK.addAddress('::1', 'ipv6');

/** Addresses no webhook reaches: private, shared, link-local, multicast, reserved and documentation ranges. */
const INTERNAL = new BlockList();
for (const [net, bits] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  INTERNAL.addSubnet(net, bits, 'ipv4');
for (const [net, bits] of [
  ['::', 128],
  ['64:ff9b::', 96],
  ['100::', 64],
  ['2001:db8::', 32],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const)
  INTERNAL.addSubnet(net, bits, 'ipv6');

/** An IPv4 address written as IPv6 (::ffff:10.0.0.1) is judged as the IPv4 one. */
function unmapped(address: string): { address: string; family: 'ipv4' | 'ipv6' } {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return { address: mapped[1]!, family: 'ipv4' };
  return { address, family: isIP(address) === 6 ? 'ipv6' : 'ipv4' };
}

/** Whether a webhook may connect to this address. */
export function addressAllowed(raw: string, policy: TargetPolicy): boolean {
  const { address, family } = unmapped(raw);
  if (LOOPBACK.check(address, family)) return policy.allowLoopback;
  return !INTERNAL.check(address, family);
}

/**
 * The URL as saved: its shape (domain/webhooks), then every address its host resolves to. Refuses with 840 (not a
 * URL Kedai sends to), 841 (an internal address) or 848 (the host does not resolve).
 */
export async function checkTarget(raw: string, policy: TargetPolicy): Promise<URL> {
  const url = checkEndpointUrl(raw, policy);
  const host = hostOf(url);
  if (isLoopbackName(host)) {
    if (!policy.allowLoopback) throw refuseWebhook('URL_NOT_ALLOWED');
    return url;
  }
  let addresses: { address: string }[];
  if (isIP(host)) addresses = [{ address: host }];
  else {
    try {
      addresses = await lookup(host, { all: true, verbatim: true });
    } catch {
      throw refuseWebhook('URL_UNRESOLVED');
    }
  }
  if (addresses.length === 0) throw refuseWebhook('URL_UNRESOLVED');
  if (!addresses.every(({ address }) => addressAllowed(address, policy)))
    throw refuseWebhook('URL_NOT_ALLOWED');
  return url;
}

/** The error a connection refused by the policy fails with (the delivery log shows its message). */
export class TargetNotAllowed extends Error {
  override name = 'TargetNotAllowed';
}

/**
 * A `lookup` for node's http(s).request that dials only allowed addresses: the check at connection time. Loopback
 * names resolve to the loopback address when allowed, without asking DNS.
 */
export function guardedLookup(policy: TargetPolicy): LookupFunction {
  return (hostname, options, callback) => {
    if (isLoopbackName(hostname)) {
      if (!policy.allowLoopback) {
        callback(new TargetNotAllowed(`${hostname} is not a webhook target`), '', 4);
        return;
      }
    }
    lookup(hostname, { all: true, verbatim: true, family: options.family ?? 0 }).then(
      (found) => {
        const allowed = found.filter(({ address }) => addressAllowed(address, policy));
        if (allowed.length === 0 || allowed.length !== found.length) {
          callback(new TargetNotAllowed(`${hostname} resolves to an address webhooks may not reach`), '', 4);
          return;
        }
        if (options.all) callback(null, allowed);
        else callback(null, allowed[0]!.address, allowed[0]!.family);
      },
      (error: NodeJS.ErrnoException) => callback(error, '', 4),
    );
  };
}
