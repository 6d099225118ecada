// The OpenAPI document the server serves at /api/docs (docs/api.md section 10), derived from the contract's route
// entries: an entry's name is its operationId; its tag, session and refusals become the operation's tag, security
// and error answers. Routes that are not calls (the web app's pages, the console's, the cashier's) hide themselves
// from it.
import type { FastifyDynamicSwaggerOptions } from '@fastify/swagger';
import { type Area, gatewayRoutes, type Method, type RouteSpec, routes } from '@yueman/contract';
import { adminRoutes } from '@yueman/contract/admin';
import { Type } from 'typebox';

/** The document's tags, in this order: one an area. */
const AREAS: Record<Area, string> = {
  catalogue: '书库：首页、分类、书籍、章节与搜索',
  account: '账号：访客注册、登录、手机号与密码、阅读进度与换浏览器继续',
  money: '阅币：购买章节与消费记录',
  payments: '充值与支付，以及支付网关的通知',
  support: '客服信息、联系方式与举报',
  admin: '管理后台：操作员的调用',
};

/** The session cookies (users/sessions.ts and operators/operator-session.plugin.ts name them). */
const READER_SESSION = 'sid';
const OPERATOR_SESSION = 'yadm';

/** What each refusal means, as the document says it; the envelope's msg says it in the reader's words. */
const REFUSALS = {
  400: '参数不正确（msg 指出哪一个；管理后台的 data.field 指出表单字段），或请求体无法解析',
  401: '没有有效的会话：请先登录',
  403: '拒绝：请求来自其他站点、身份请求头与会话不一致，或操作员的角色无权进行此操作',
  404: '要找的书籍、章节或记录不存在',
  409: '冲突：内容已被他人修改，或仍被读者的购买引用',
  413: '请求体或上传的文件过大',
  415: '不支持的请求体格式',
  429: '操作过于频繁：Retry-After 指出几秒后再试',
} as const;
type Status = keyof typeof REFUSALS;

/** A refusal's schema, shared by every operation that answers it: the envelope with result false and this code. */
const refusalSchema = (status: Status) =>
  Type.Object(
    {
      result: Type.Literal(false),
      code: Type.Literal(status),
      msg: Type.String(),
      data: Type.Unknown(),
    },
    { $id: `Refusal${status}`, title: `Refusal${status}`, description: REFUSALS[status] },
  );
export const refusalSchemas = Object.keys(REFUSALS).map((s) => refusalSchema(Number(s) as Status));

const capitalised = (name: string) => `${name.slice(0, 1).toUpperCase()}${name.slice(1)}`;
/** Each entry's name: the readers' and the gateways' as they are, the console's after `admin` (both have a login). */
const NAMES = new Map<RouteSpec, string>([
  ...Object.entries(routes).map(([name, spec]) => [spec, name] as const),
  ...Object.entries(gatewayRoutes).map(([name, spec]) => [spec, name] as const),
  ...Object.entries(adminRoutes).map(([name, spec]) => [spec, `admin${capitalised(name)}`] as const),
]);

/** The operation's id: its entry's name; an entry of several methods names the first, the others add theirs. */
export function operationIdOf(spec: RouteSpec, method: Method): string {
  const name = NAMES.get(spec);
  if (name === undefined) throw new Error(`${spec.url}: not an entry of the contract's route tables`);
  const first = [spec.method].flat()[0];
  return method === first ? name : `${name}${capitalised(method.toLowerCase())}`;
}

export const sessionOf = (spec: RouteSpec) =>
  spec.session ?? (spec.base === 'static' ? 'none' : spec.tag === 'admin' ? 'required' : 'optional');

/** The security requirement of an entry's session: the operators' cookie on the console's calls, else the readers'. */
export function securityOf(spec: RouteSpec) {
  const scheme = { [spec.tag === 'admin' ? OPERATOR_SESSION : READER_SESSION]: [] };
  const session = sessionOf(spec);
  return session === 'none' ? [] : session === 'optional' ? [scheme, {}] : [scheme];
}

/** What the server's own wiring of a route adds to its refusals. */
export interface RouteWiring {
  /** A console call not every role reaches (its config.operatorRoles). */
  rolesLimited: boolean;
}

/**
 * The refusals a route can answer: its entry's, and those of every call of its kind (docs/api.md, "Envelope and
 * codes"). Every call can answer 400: its input is validated, a POST body may not parse, and any query string with a
 * NUL byte or a number that is not finite is refused whatever the route (shared/input-guard.ts); a required session
 * is 401 without; a POST from another site (shared/origin-check.ts) and a reader's session its identity headers
 * contradict (users/identity.plugin.ts) are 403; a body over the limit is 413, one of a type no parser reads 415
 * (the gateways' notifications read every type).
 */
export function refusalsOf(spec: RouteSpec, method: Method, wiring: RouteWiring): Status[] {
  const statuses = new Set<Status>([400, ...(spec.refusals ?? [])]);
  const post = method === 'POST';
  if (sessionOf(spec) === 'required') statuses.add(401);
  const readerSession = spec.base === 'dynamic' && spec.tag !== 'admin' && sessionOf(spec) !== 'none';
  if (post || readerSession || wiring.rolesLimited) statuses.add(403);
  if (post) statuses.add(413);
  if (post && !Object.values<RouteSpec>(gatewayRoutes).includes(spec)) statuses.add(415);
  return [...statuses].sort((a, b) => a - b);
}

const SUCCESS =
  '信封：成功时 result 为 true，data 为此调用的数据；业务结果（如 999 须购买、101、102、103）也是 HTTP 200，result 为 false';

/** The responses of a route in the document: its success described, a redirect where it has one, its refusals. */
export function documentedAnswers(spec: RouteSpec, response: unknown, statuses: Status[]) {
  const answers: Record<string, unknown> = {};
  // An answer that is not an envelope (an image, a gateway's acknowledgement) says what it is in its data's schema.
  const own = (spec.data as { description?: string }).description ?? '应答的内容本身，不是信封';
  for (const [status, schema] of Object.entries(response as Record<string, object>)) {
    answers[status] = { ...schema, description: spec.produces ? own : SUCCESS };
  }
  if (spec.redirect) {
    answers[302] = {
      type: 'null',
      description: `重定向到${spec.redirect}`,
      headers: { Location: { type: 'string', description: '要打开的地址' } },
    };
  }
  for (const status of statuses) answers[status] = { $ref: `Refusal${status}#` };
  return answers;
}

/** @fastify/swagger's options: the document's frame (info, servers, tags, the session schemes). */
export function swaggerOptions(publicOrigin: string): FastifyDynamicSwaggerOptions {
  return {
    // A shared schema keeps its $id as its name in the document (the refusals: Refusal400, …), not def-N.
    refResolver: {
      buildLocalReference: (json, _baseUri, _fragment, i) =>
        typeof json.$id === 'string' ? json.$id : `def-${i}`,
    },
    openapi: {
      info: {
        title: '阅漫 API',
        version: '1.0.0',
        description:
          '阅漫的读者端、支付网关通知与管理后台的调用。每个 JSON 应答都是信封 { result, code, msg, data }：' +
          '业务结果为 HTTP 200，传输层的拒绝以 HTTP 状态为 code。仓库中的 docs/api.md 说明其中的规则。',
      },
      servers: [{ url: publicOrigin, description: '本服务器（PUBLIC_ORIGIN）' }],
      tags: Object.entries(AREAS).map(([name, description]) => ({ name, description })),
      components: {
        securitySchemes: {
          [READER_SESSION]: {
            type: 'apiKey',
            in: 'cookie',
            name: READER_SESSION,
            description: '读者的会话：访客注册、登录或找回账号时由服务器设置（HttpOnly）',
          },
          [OPERATOR_SESSION]: {
            type: 'apiKey',
            in: 'cookie',
            name: OPERATOR_SESSION,
            description: '操作员的会话：管理后台登录时由服务器设置（HttpOnly）',
          },
        },
      },
    },
  };
}
