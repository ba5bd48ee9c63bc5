import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import type { LookupFunction } from 'node:net';

import ipaddr from 'ipaddr.js';
import type { Dispatcher } from 'undici';

import { AppError } from './errors';

/**
 * Outbound requests (webhooks, notifications, logos) must not reach the server's own network: loopback, private, link-local (cloud metadata
 * at 169.254.169.254 included), CGNAT, multicast, unspecified and reserved addresses are refused, in IPv4,
 * IPv6 and IPv4-mapped IPv6 forms. Decimal, hex and short IPv4 spellings are normalised by the URL parser
 * before the check. Checked when an endpoint is saved and again at connect time, so DNS rebinding fails.
 */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv6') {
    const ipv6 = parsed as ipaddr.IPv6;
    if (ipv6.isIPv4MappedAddress()) parsed = ipv6.toIPv4Address();
    // Only 2000::/3 is global unicast. ipaddr.js files the unassigned rest under unicast too, the reserved
    // ::/8 included, where IPv4 addresses hide: IPv4-compatible (::a.b.c.d, deprecated by RFC 4291, so
    // ::7f00:1 too) and ISATAP with a zero prefix (::5efe:a.b.c.d). The other embeddings (6to4 2002::/16,
    // NAT64 64:ff9b::/96 and 64:ff9b:1::/48, Teredo, IPv4-translated ::ffff:0:a.b.c.d) have ranges of their
    // own, refused whole.
    else if ((ipv6.parts[0] & 0xe000) !== 0x2000) return false;
  }
  return parsed.range() === 'unicast';
}

/** The endpoint URL if it may be used, else a BAD_USER_INPUT naming `url`. */
export function checkEndpointUrl(text: string, allowPrivate: boolean): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw AppError.field('url', 'The url must be an absolute http(s) URL.');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw AppError.field('url', 'The url must use http or https.');
  if (url.username || url.password) throw AppError.field('url', 'The url must not carry credentials.');
  if (text.length > 2000) throw AppError.field('url', 'The url must be at most 2000 characters.');
  // `localhost.` is `localhost`: a name's trailing dot (the DNS root) changes nothing it resolves to.
  const host = url.hostname
    .replace(/^\[|\]$/g, '')
    .replace(/\.+$/, '')
    .toLowerCase();
  if (!allowPrivate && ipaddr.isValid(host) && !isPublicAddress(host)) {
    throw AppError.field('url', 'The url must not point to a loopback, private, link-local or other internal address.');
  }
  if (!allowPrivate && (host === 'localhost' || host.endsWith('.localhost')))
    throw AppError.field('url', 'The url must not point to this machine.');
  return url;
}

/** Resolves names for a delivery and refuses any answer that is not a public address. */
export async function resolvePublicAddresses(hostname: string): Promise<LookupAddress[]> {
  const addresses = await new Promise<LookupAddress[]>((resolve, reject) =>
    dnsLookup(hostname, { all: true }, (error, found) => (error ? reject(error) : resolve(found))),
  );
  const blocked = addresses.find((entry) => !isPublicAddress(entry.address));
  if (blocked) throw new Error(`refused: ${hostname} resolves to the internal address ${blocked.address}`);
  return addresses;
}

/** A `lookup` for node:http that connects only to public addresses. */
export const publicOnlyLookup: LookupFunction = (hostname, options, callback) => {
  resolvePublicAddresses(hostname).then(
    (addresses) => {
      if (options.all) (callback as unknown as (error: null, addresses: LookupAddress[]) => void)(null, addresses);
      else callback(null, addresses[0].address, addresses[0].family);
    },
    (error: NodeJS.ErrnoException) => callback(error, '', 0),
  );
};

/**
 * The undici agents of one kind of outbound request, by address rule: `publicOnly` checks each resolved address
 * at connect time (publicOnlyLookup), `any` lets private ones through (*_ALLOW_PRIVATE). Each agent holds up to
 * `connections` per origin. Made at the first request: a process that sends none loads no undici (~2.5 MB of
 * heap).
 */
export function outboundAgents(options: {
  connections: number;
  connectTimeoutMs: number;
}): (allowPrivate: boolean) => Dispatcher {
  let agents: Record<'publicOnly' | 'any', Dispatcher> | undefined;
  return (allowPrivate) => {
    if (!agents) {
      const { Agent } = require('undici') as typeof import('undici');
      const { connections, connectTimeoutMs: timeout } = options;
      agents = {
        publicOnly: new Agent({ connections, connect: { lookup: publicOnlyLookup, timeout } }),
        any: new Agent({ connections, connect: { timeout } }),
      };
    }
    return agents[allowPrivate ? 'any' : 'publicOnly'];
  };
}
