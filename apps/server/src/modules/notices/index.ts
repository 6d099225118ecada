import type { FastifyInstance } from 'fastify';
import { backgroundLoop } from '../../shared/background-loop.ts';
import { createWechatOauth } from '../../shared/wechat-oauth.ts';
import type { ModuleContext } from '../module-context.ts';
import type { NoticesPort } from './notices.port.ts';
import { createNoticesRepository } from './notices.repository.ts';
import { noticeRoutes } from './notices.routes.ts';
import { enqueueNotice, findEvents, type NoticesDeps, sendDue } from './notices.service.ts';
import { createWechatMp } from './wechat-mp.ts';

export type { NoticesPort } from './notices.port.ts';

/**
 * WeChat notices (更新提醒): readers bind their WeChat and subscribe inside it; one background job finds the events
 * (a wait for free ended, tickets about to end, new chapters of followed books, 攒更 piles reached), takes what other modules enqueue, and sends through the official
 * account. Without WECHAT_NOTICE_TEMPLATES its calls answer 404 更新提醒未开通 and no job runs.
 */
export async function registerNotices(app: FastifyInstance, ctx: ModuleContext): Promise<NoticesPort> {
  const settings = ctx.config.notices;
  const repo = createNoticesRepository(ctx.db);
  const log = ctx.log.child({ job: 'wechat-notices' });
  const deps: NoticesDeps = {
    settings,
    repo,
    mp: settings && createWechatMp(settings),
    publicOrigin: ctx.config.publicOrigin,
    log,
    pileTold: (userId, bookId, chapter) => ctx.ports.users.pileTold(userId, bookId, chapter),
  };
  await noticeRoutes(app, {
    ...deps,
    oauth: settings && createWechatOauth(settings),
    secureCookies: ctx.config.publicOrigin.startsWith('https://'),
    issueHandoff: (userId, to) => ctx.ports.users.issueHandoff(userId, to),
  });
  if (settings)
    ctx.jobs.add(
      backgroundLoop({
        name: 'wechat-notices',
        // How often the job looks for events and sends what is due (NOTICES_PASS_SECONDS).
        intervalMs: settings.passSeconds * 1000,
        log,
        run: async () => {
          await findEvents(deps);
          return (await sendDue(deps)).more;
        },
      }),
    );
  return {
    enabled: settings !== undefined,
    enqueue: (notice) => enqueueNotice(deps, notice),
  };
}
