import type { FastifyInstance } from 'fastify';
import { PLACE_NAMES } from './error-handler.ts';
import { badRequest } from './errors.ts';

/**
 * What schema validation lets through but the database cannot take: Ajv coerces 'Infinity', '1e309' or a
 * 400-digit id to a non-finite number that passes `integer` with a maximum, and any string may carry a NUL byte,
 * which PostgreSQL refuses in text. Both answer 400 naming the field, before any handler runs.
 */
function badField(value: unknown, name: string, depth = 0): string | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? undefined : name;
  if (typeof value === 'string') return value.includes('\0') ? name : undefined;
  if (value === null || typeof value !== 'object' || depth > 4) return undefined;
  for (const [key, inner] of Object.entries(value)) {
    const bad = badField(inner, name ? `${name}.${key}` : key, depth + 1);
    if (bad !== undefined) return bad;
  }
  return undefined;
}

export function registerInputGuard(app: FastifyInstance) {
  app.addHook('preHandler', async (req) => {
    const places = [
      ['querystring', req.query],
      ['params', req.params],
      ['body', req.body],
    ] as const;
    for (const [place, value] of places) {
      const bad = badField(value, '');
      if (bad !== undefined) {
        throw badRequest(bad ? `${PLACE_NAMES[place]} ${bad} 不正确` : `${PLACE_NAMES[place]}不正确`);
      }
    }
  });
}
