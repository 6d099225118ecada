import type { FastifyRequest } from 'fastify';

/**
 * preValidation for the account calls: their fields may come in a form body as well as in the query. The original
 * client puts them in the query; the web app sends them in the body, so passwords stay out of URLs (and so out of
 * proxies' and browsers' logs). A field in the body wins; the query schema then validates both alike.
 */
export async function formFieldsIntoQuery(req: FastifyRequest) {
  const body = req.body;
  if (body === null || typeof body !== 'object') return;
  const query: Record<string, unknown> = { ...(req.query as Record<string, unknown>) };
  for (const [name, value] of Object.entries(body)) if (typeof value === 'string') query[name] = value;
  req.query = query;
}
