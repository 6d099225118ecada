import type { ComplaintState } from '@yueman/contract/admin';
import { AppError, badRequest, notFound } from '../../shared/errors.ts';

export const noSuchComplaint = () => notFound('没有这条举报');

const STATE_NAMES: Record<ComplaintState, string> = { new: '新', handling: '处理中', done: '已处理' };

/**
 * Someone moved the complaint since the operator looked (two operators taking it at once): says who has it now, so
 * the second knows whom to ask. The complaint as it is now is in data.
 */
export function complaintMovedMeanwhile(
  now: { state: ComplaintState; handler: string | null },
  data: unknown,
) {
  const who = now.handler ?? '其他操作员';
  const msg =
    now.state === 'handling'
      ? `这条举报已由 ${who} 处理中`
      : now.state === 'done'
        ? `这条举报已由 ${who} 标为已处理`
        : `这条举报已被改回“${STATE_NAMES.new}”，请刷新后再试`;
  return new AppError(409, 409, msg, data);
}

export const sameComplaintState = () => badRequest('状态没有变化', 'state');
