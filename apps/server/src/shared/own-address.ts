import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';

/** This server's own address as seen from itself, once it listens (notifications loop back to it). */
export function ownAddress(app: FastifyInstance, fallbackPort: number) {
  const address = app.server.address() as AddressInfo | string | null;
  if (!address || typeof address === 'string') return `http://127.0.0.1:${fallbackPort}`;
  const host = ['0.0.0.0', '::'].includes(address.address)
    ? '127.0.0.1'
    : address.family === 'IPv6'
      ? `[${address.address}]`
      : address.address;
  return `http://${host}:${address.port}`;
}
