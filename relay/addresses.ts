/**
 * Where the page's own relay may connect: public addresses, http and https alike, checked on the
 * address the connection is made to (the lookup is ours, so a name cannot resolve to one address
 * for the check and another for the call); loopback, private, link-local and other special-use
 * addresses only where the person running the server allows them (S04_RELAY_ALLOW_LOCAL).
 * docs/relay.md has every rule.
 */
import { type LookupAddress } from 'node:dns';
import { BlockList, isIP, type LookupFunction } from 'node:net';

/** The environment variable through which the person running the server allows local targets. */
export const ALLOW_LOCAL_ENV = 'S04_RELAY_ALLOW_LOCAL';

/**
 * The one sentence for an address the relay will not connect to and for a connection that
 * failed, whatever the reason: telling them apart would map the ports of the server's network.
 */
export const UNREACHABLE =
  `The relay could not connect to the endpoint: it connects only to public addresses, and to ` +
  `local ones only where its server allows them (${ALLOW_LOCAL_ENV}, see docs/relay.md).`;

/** Loopback, private, link-local and other special-use ranges (IANA's special-purpose registries). */
const SPECIAL_USE = new BlockList();
for (const [prefix, bits] of [
  ['0.0.0.0', 8], // "this network"
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8],
  ['169.254.0.0', 16], // link-local (cloud metadata)
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
] as const) {
  SPECIAL_USE.addSubnet(prefix, bits, 'ipv4');
}
for (const [prefix, bits] of [
  ['::', 96], // unspecified, loopback, IPv4-compatible
  ['64:ff9b::', 96], // NAT64: the embedded IPv4 address is not checked
  ['64:ff9b:1::', 48],
  ['100::', 64], // discard
  ['2001::', 23], // IETF protocol assignments, Teredo
  ['2001:db8::', 32], // documentation
  ['2002::', 16], // 6to4: the embedded IPv4 address is not checked
  ['3fff::', 20], // documentation
  ['fc00::', 7], // unique local
  ['fe80::', 10], // link-local
  ['fec0::', 10], // site-local
  ['ff00::', 8], // multicast
] as const) {
  SPECIAL_USE.addSubnet(prefix, bits, 'ipv6');
}
/** This machine: what S04_RELAY_ALLOW_LOCAL=1 allows. */
const LOOPBACK = new BlockList();
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4');
LOOPBACK.addAddress('::1', 'ipv6');

/** True for an address the relay never reaches unless allowed: not a public unicast address. */
export function isSpecialUse(address: string): boolean {
  const family = isIP(address);
  // IPv4-mapped IPv6 addresses (::ffff:a.b.c.d) are checked as the IPv4 address they carry.
  if (family === 4) return SPECIAL_USE.check(address, 'ipv4');
  if (family === 6) return SPECIAL_USE.check(address, 'ipv6');
  return true;
}

/** Which local targets the person running the server allows (S04_RELAY_ALLOW_LOCAL). */
export interface LocalAllowance {
  /** `1`: every loopback address of this machine, any port. */
  loopback: boolean;
  /** `host:port` entries, matched against the URL's host and against the resolved address. */
  hostPorts: Set<string>;
}

/**
 * Reads S04_RELAY_ALLOW_LOCAL: unset or `0` allows nothing local; `1` allows this machine's
 * loopback; otherwise a comma-separated list of `host:port` (e.g. `localhost:11434,192.168.1.20:8080`).
 */
export function parseAllowLocal(value: string | undefined): LocalAllowance {
  const allowance: LocalAllowance = { loopback: false, hostPorts: new Set() };
  const text = (value ?? '').trim();
  if (!text || text === '0') return allowance;
  if (text === '1') return { ...allowance, loopback: true };
  for (const entry of text.split(',').map((part) => part.trim())) {
    const url = URL.canParse(`http://${entry}`) ? new URL(`http://${entry}`) : null;
    if (!url || !/:\d+$/.test(entry) || url.host !== entry.toLowerCase().replace(/:80$/, '')) {
      console.warn(`${ALLOW_LOCAL_ENV}: "${entry}" is not host:port (e.g. localhost:11434); ignored.`);
      continue;
    }
    allowance.hostPorts.add(hostPort(url.hostname, effectivePort(url)));
  }
  return allowance;
}

export function hostPort(host: string, port: number): string {
  const bare = host.replace(/^\[|\]$/g, '');
  return isIP(bare) === 6 ? `[${bare}]:${port}` : `${bare.toLowerCase()}:${port}`;
}

export function effectivePort(url: URL): number {
  return url.port ? Number(url.port) : url.protocol === 'https:' ? 443 : 80;
}

/** True when the relay may connect to `address` for a target URL (its host and port). */
export function mayConnect(address: string, target: URL, allowance: LocalAllowance): boolean {
  if (!isSpecialUse(address)) return true;
  if (allowance.loopback && isIP(address) && LOOPBACK.check(address, isIP(address) === 4 ? 'ipv4' : 'ipv6'))
    return true;
  const port = effectivePort(target);
  return (
    allowance.hostPorts.has(hostPort(target.hostname, port)) ||
    allowance.hostPorts.has(hostPort(address, port))
  );
}

/** What a lookup refused: answered with the same sentence as any failure to connect. */
export class RefusedAddress extends Error {
  readonly code = 'ERELAYREFUSED';
}

/**
 * A lookup for one call that fails unless every address the name resolves to may be reached:
 * the connection is made to an address this checked, so no second resolution can differ.
 */
export function guardedLookup(
  resolve: LookupFunction,
  target: URL,
  allowance: LocalAllowance,
): LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname, { ...options, all: true }, (error, found) => {
      const addresses = (Array.isArray(found) ? found : []) as LookupAddress[];
      if (error) return callback(error, '', 0);
      if (!addresses.length || addresses.some(({ address }) => !mayConnect(address, target, allowance))) {
        return callback(new RefusedAddress('refused'), '', 0);
      }
      if (options.all) return callback(null, addresses);
      callback(null, addresses[0].address, addresses[0].family);
    });
  };
}
