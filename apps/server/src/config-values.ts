import { isIP } from 'node:net';

// The values the schema only types as text (origins, URL bases, TRUST_PROXY), checked and normalised here.

/** A bad setting: the server stops with its message, which names the variable. */
export class ConfigError extends Error {}

export function publicOriginOf(raw: string | undefined, port: number): string {
  const origin = (raw ?? `http://localhost:${port}`).replace(/\/+$/, '');
  if (!/^https?:\/\/[^/]+$/.test(origin)) {
    throw new ConfigError(`PUBLIC_ORIGIN must be an origin such as https://m.example.com, got "${origin}"`);
  }
  return origin;
}

/** A base URL handed to the web app or the gateways; empty means this server's own origin. */
export function apiBase(name: string, raw: string | undefined): string {
  const base = (raw ?? '').trim().replace(/\/+$/, '');
  if (base !== '' && !/^https?:\/\/[^/]+/.test(base)) {
    throw new ConfigError(`${name} must be empty (same origin) or an http(s) URL, got "${base}"`);
  }
  return base;
}

export function allowedOrigins(raw: string | undefined): string[] {
  const list = (raw ?? '')
    .split(',')
    .map((o) => o.trim().replace(/\/+$/, ''))
    .filter((o) => o !== '');
  const bad = list.find((o) => !/^https?:\/\/[^/?#\s]+$/.test(o));
  if (bad !== undefined) {
    throw new ConfigError(
      `ALLOWED_ORIGINS must be a comma list of origins such as https://m.example.com, got "${bad}"`,
    );
  }
  return list;
}

const LOOPBACK_HOSTS = ['localhost', '127.0.0.1', '[::1]'];
/** A local origin (the default, for trying the service out) is the same site under each loopback name. */
export function isLocalOrigin(origin: string): boolean {
  const url = new URL(origin);
  return url.protocol === 'http:' && LOOPBACK_HOSTS.includes(url.hostname);
}
function loopbackAliases(origin: string): string[] {
  if (!isLocalOrigin(origin)) return [origin];
  const port = new URL(origin).port;
  return LOOPBACK_HOSTS.map((host) => `http://${host}${port ? `:${port}` : ''}`);
}

export function trustedOrigins(publicOrigin: string, bases: string[], allowed: string[]): string[] {
  const baseOrigins = bases.filter((b) => b !== '').map((b) => new URL(b).origin);
  return [...new Set([...loopbackAliases(publicOrigin), ...baseOrigins, ...allowed])];
}

const PROXY_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/** A proxy address or range as proxy-addr reads it: an IP, an IP/prefix, or one of its named ranges. */
function isProxyAddress(entry: string): boolean {
  if (PROXY_NAMES.has(entry)) return true;
  const [ip = '', prefix, ...rest] = entry.split('/');
  const version = isIP(ip);
  if (version === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  const bits = Number(prefix);
  return /^\d{1,3}$/.test(prefix) && bits <= (version === 4 ? 32 : 128);
}

export function trustProxy(raw: string): false | number | string[] {
  const value = raw.trim().toLowerCase();
  if (['', 'false', 'no', '0'].includes(value)) return false;
  if (['true', 'yes'].includes(value)) {
    throw new ConfigError(
      'TRUST_PROXY=true would believe any X-Forwarded-For a client writes: set the number of proxies in front of the server (e.g. 1) or their addresses / CIDR ranges (e.g. 10.0.0.0/8,127.0.0.1)',
    );
  }
  if (/^\d+$/.test(value)) {
    const hops = Number(value);
    if (hops > 16) throw new ConfigError(`TRUST_PROXY hop count must be from 1 to 16, got "${raw}"`);
    return hops;
  }
  const entries = value.split(',').map((e) => e.trim());
  const bad = entries.find((e) => !isProxyAddress(e));
  if (bad !== undefined) {
    throw new ConfigError(
      `TRUST_PROXY must be false, a hop count, or a comma list of proxy addresses / CIDR ranges; "${bad}" is none of these`,
    );
  }
  return entries;
}
