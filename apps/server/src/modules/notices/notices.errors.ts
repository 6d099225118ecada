import { Code } from '@yueman/contract';
import { AppError, badRequest } from '../../shared/errors.ts';

/** Without WECHAT_NOTICE_TEMPLATES the feature is off: its calls say so, and the reader app hides 更新提醒. */
export const noticesNotConfigured = () => new AppError(404, Code.notFound, '更新提醒未开通');
/** wx.config is signed only for this site's own pages. */
export const notOurPage = () => badRequest('只能为本站页面签名', 'url');
