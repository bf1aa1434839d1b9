import { BlockList, isIP } from 'node:net';
import type { Context } from 'hono';
import { getConnInfo } from '@hono/node-server/conninfo';

/**
 * Which hops in front of the BFF are proxies it trusts (`TRUST_PROXY`): the nearest `hops` of
 * them, or those whose address is on `list`. The client is the first address, walking
 * `X-Forwarded-For` from its right end, that is not a trusted proxy.
 */
export type ProxyTrust = { hops: number } | { list: BlockList };

/** The most proxies a request may pass through and still be counted by hops. */
export const MAX_PROXY_HOPS = 10;

// The names proxy-addr (Express's) gives these ranges, for settings copied from an Express app.
const NAMED_RANGES: Record<string, Array<[string, number, 'ipv4' | 'ipv6']>> = {
  loopback: [['127.0.0.0', 8, 'ipv4'], ['::1', 128, 'ipv6']],
  linklocal: [['169.254.0.0', 16, 'ipv4'], ['fe80::', 10, 'ipv6']],
  uniquelocal: [['10.0.0.0', 8, 'ipv4'], ['172.16.0.0', 12, 'ipv4'], ['192.168.0.0', 16, 'ipv4'], ['fc00::', 7, 'ipv6']],
};

const family = (address: string) => (isIP(address) === 6 ? 'ipv6' : 'ipv4');

/**
 * `TRUST_PROXY` as a trust: `false` (or unset, `0`) trusts no proxy, `true` the nearest one, a number
 * that many, anything else is a comma-separated list of addresses, CIDR ranges and the names
 * `loopback`, `linklocal`, `uniquelocal`. Undefined for no trust; a string says what is wrong.
 */
export function parseProxyTrust(raw: string): ProxyTrust | undefined | string {
  const value = raw.trim().toLowerCase();
  if (['', 'false', 'no', 'off'].includes(value)) return undefined;
  if (['true', 'yes', 'on'].includes(value)) return { hops: 1 };
  if (/^\d+$/.test(value)) {
    const hops = Number(value);
    return hops <= MAX_PROXY_HOPS ? { hops } : `a number of proxies must be at most ${MAX_PROXY_HOPS}`;
  }
  const list = new BlockList();
  for (const item of value.split(',').map((s) => s.trim())) {
    const named = NAMED_RANGES[item];
    if (named) {
      for (const [net, prefix, type] of named) list.addSubnet(net, prefix, type);
      continue;
    }
    const [address = '', prefix, extra] = item.split('/');
    const type = isIP(address);
    const bits = type === 6 ? 128 : 32;
    if (type === 0 || extra !== undefined || (prefix !== undefined && !(/^\d+$/.test(prefix) && Number(prefix) <= bits))) {
      return `"${item}" is not an IP address, a CIDR range or one of loopback, linklocal, uniquelocal`;
    }
    if (prefix === undefined) list.addAddress(address, family(address));
    else list.addSubnet(address, Number(prefix), family(address));
  }
  return { list };
}

/**
 * The client's address: the socket's, unless it is a trusted proxy; then, hop by hop from the
 * right end of `X-Forwarded-For` (each proxy appends the address it saw), the first that is not.
 * Entries further left were written by the client and are never believed. Should the header run
 * out, or hold something that is not an address where the walk reaches it, the last address
 * reached stands, so what is returned is always an address (a rate-limit key no client can vary
 * at will), never the header's text.
 */
export function clientAddress(socket: string, forwardedFor: string | undefined, trust: ProxyTrust | undefined): string {
  if (!trust || !forwardedFor) return socket;
  const hops = forwardedFor.split(',');
  let client = socket;
  for (let i = 0; ; i++) {
    const trusted = 'hops' in trust ? i < trust.hops : isIP(client) !== 0 && trust.list.check(client, family(client));
    if (!trusted) return client;
    const next = hops[hops.length - 1 - i];
    const address = next && withoutPort(next.trim());
    if (!address || isIP(address) === 0) return client;
    client = address;
  }
}

/**
 * An entry's address without the port some proxies write after it (Azure Application Gateway:
 * `203.0.113.9:51234`, `[2001:db8::1]:443`); kept, every visitor behind one would count as the proxy.
 */
function withoutPort(entry: string): string {
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(entry);
  if (bracketed) return bracketed[1]!;
  const v4 = /^(\d{1,3}(?:\.\d{1,3}){3}):\d+$/.exec(entry);
  return v4 ? v4[1]! : entry;
}

/** The client's IP (`clientAddress`): the socket's address, or behind trusted proxies the one they saw. */
export function clientIp(c: Context, trust: ProxyTrust | undefined): string {
  let socket: string;
  try {
    socket = getConnInfo(c).remote.address ?? 'unknown';
  } catch {
    socket = 'unknown'; // no socket: app.request() in tests
  }
  return clientAddress(socket, trust && c.req.header('x-forwarded-for'), trust);
}
