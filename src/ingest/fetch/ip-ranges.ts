// Which IP addresses a user-supplied URL may make Parley connect to. Everything that is not plainly
// on the public internet is refused: loopback, private networks, link-local (cloud metadata lives at
// 169.254.169.254), carrier-grade NAT, multicast, reserved and documentation ranges, and the IPv6
// forms that embed an IPv4 address (so `::ffff:127.0.0.1` cannot smuggle loopback past the check).
import { isIPv4, isIPv6 } from 'node:net';

type Cidr = readonly [base: bigint, prefix: number];

const IPV4_BLOCKED: readonly (readonly [string, number])[] = [
  ['0.0.0.0', 8], // "this network", includes the unspecified 0.0.0.0
  ['10.0.0.0', 8], // RFC 1918
  ['100.64.0.0', 10], // carrier-grade NAT (RFC 6598)
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local, cloud metadata endpoints
  ['172.16.0.0', 12], // RFC 1918
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // TEST-NET-1
  ['192.88.99.0', 24], // 6to4 relay anycast
  ['192.168.0.0', 16], // RFC 1918
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // TEST-NET-2
  ['203.0.113.0', 24], // TEST-NET-3
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, includes broadcast 255.255.255.255
];

const IPV6_BLOCKED: readonly (readonly [string, number])[] = [
  ['::', 128], // unspecified
  ['::1', 128], // loopback
  ['100::', 64], // discard-only
  ['2001::', 32], // Teredo: tunnels to arbitrary IPv4 hosts
  ['2001:db8::', 32], // documentation
  ['64:ff9b:1::', 48], // local-use NAT64
  ['fc00::', 7], // unique local
  ['fe80::', 10], // link-local
  ['fec0::', 10], // deprecated site-local
  ['ff00::', 8], // multicast
];

/** IPv6 prefixes whose low bits carry an IPv4 address that must itself be checked. */
const IPV6_EMBEDDING_IPV4: readonly (readonly [string, number])[] = [
  ['::ffff:0:0', 96], // IPv4-mapped
  ['::', 96], // IPv4-compatible (deprecated)
  ['64:ff9b::', 96], // NAT64 well-known prefix
];

function ipv4ToBigInt(ip: string): bigint {
  return ip.split('.').reduce((acc, part) => (acc << 8n) | BigInt(Number(part)), 0n);
}

/** Parses any valid textual IPv6 address (zero compression, embedded dotted quad) to 128 bits. */
function ipv6ToBigInt(ip: string): bigint {
  let text = ip;
  const lastColon = text.lastIndexOf(':');
  const tail = text.slice(lastColon + 1);
  if (tail.includes('.')) {
    const v4 = ipv4ToBigInt(tail);
    text = `${text.slice(0, lastColon + 1)}${(v4 >> 16n).toString(16)}:${(v4 & 0xffffn).toString(16)}`;
  }
  const [head = '', rest] = text.split('::');
  const headGroups = head === '' ? [] : head.split(':');
  const tailGroups = rest === undefined || rest === '' ? [] : rest.split(':');
  const missing = 8 - headGroups.length - tailGroups.length;
  const groups = rest === undefined ? headGroups : [...headGroups, ...Array<string>(missing).fill('0'), ...tailGroups];
  return groups.reduce((acc, group) => (acc << 16n) | BigInt(parseInt(group, 16)), 0n);
}

function compile(list: readonly (readonly [string, number])[], toBigInt: (ip: string) => bigint, bits: number): Cidr[] {
  return list.map(([ip, prefix]) => [toBigInt(ip) >> BigInt(bits - prefix), prefix] as const);
}

const V4 = compile(IPV4_BLOCKED, ipv4ToBigInt, 32);
const V6 = compile(IPV6_BLOCKED, ipv6ToBigInt, 128);
const V6_EMBEDDED = compile(IPV6_EMBEDDING_IPV4, ipv6ToBigInt, 128);

function inAny(value: bigint, ranges: readonly Cidr[], bits: number): boolean {
  return ranges.some(([base, prefix]) => value >> BigInt(bits - prefix) === base);
}

/** The IPv4 address a 6to4 (2002::/16) address tunnels to. */
function sixToFourTarget(value: bigint): bigint | null {
  return value >> 112n === 0x2002n ? (value >> 80n) & 0xffffffffn : null;
}

/**
 * True when Parley must not connect to this address (unless the operator allows private ranges).
 * Accepts IPv4, IPv6 (with or without brackets, with a zone id) and IPv4-embedding IPv6 forms.
 * Anything that does not parse as an IP address is treated as blocked: callers pass resolved
 * addresses, so garbage here means something is wrong.
 */
export function isPrivateAddress(ip: string): boolean {
  const text = ip.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  if (isIPv4(text)) return inAny(ipv4ToBigInt(text), V4, 32);
  if (!isIPv6(text)) return true;
  const value = ipv6ToBigInt(text.toLowerCase());
  if (inAny(value, V6, 128)) return true;
  if (inAny(value, V6_EMBEDDED, 128)) return inAny(value & 0xffffffffn, V4, 32);
  const tunnelled = sixToFourTarget(value);
  if (tunnelled !== null) return inAny(tunnelled, V4, 32);
  return false;
}
