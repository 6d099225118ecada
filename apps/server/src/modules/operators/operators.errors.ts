import { AppError, badRequest, forbidden, notFound, unauthorized } from '../../shared/errors.ts';

/** The console's session is missing, expired, or its operator disabled. */
export const notSignedIn = () => unauthorized('请先登录管理后台');
/** Wrong name or password (the same answer for an unknown name), or a disabled operator. */
export const wrongLogin = () => new AppError(401, 401, '用户名或密码错误');
/** The operator's role does not reach this call. */
export const roleRefused = () => forbidden('当前角色无权进行此操作');
export const nameTaken = () => badRequest('该用户名已存在', 'name');
export const badName = () => badRequest('用户名须为 2-32 位字母、数字或 _ . -', 'name');
export const badRole = () => badRequest('角色须为 owner、editor、finance 或 support', 'role');
export const noSuchOperator = () => notFound('操作员不存在');
/** The last enabled owner cannot be disabled or demoted: nobody could manage operators any more. */
export const lastOwner = () => badRequest('至少保留一个启用的 owner');
/** An update that names neither the role nor the disabled flag (only unknown keys): nothing to save. */
export const nothingToChange = () => badRequest('没有要修改的内容：请填写角色或停用');
