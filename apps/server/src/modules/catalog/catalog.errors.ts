import type { ChapterInfo } from '@yueman/contract';
import { Code } from '@yueman/contract';
import { AppError, badRequest, businessError, notFound, paymentNeeded } from '../../shared/errors.ts';

export const bookNotFound = () => notFound('这本书不存在');

/** read_chapter of a chapter number the book does not have (spec section 8). */
export const noMoreChapters = () => businessError(Code.noMoreChapters, '没有更多章节啦 ^_^');

/** Code 999: the chapter's info with its price and no pages, for the buy overlay. */
export const chapterNotBought = (info: ChapterInfo) => paymentNeeded('本章需要购买后阅读', info);

/** Search keyword messages of the spec's section 5. */
export const emptyKeyword = () => badRequest('请输入搜索关键字');
export const keywordTooLong = () => badRequest('搜索关键字最长不超过20个字');

// The console's catalogue calls.
export const chapterNotFound = () => notFound('章节不存在');
export const categoryNotFound = () => badRequest('分类不存在', 'categoryId');
export const notAnImage = (field: string) => badRequest('请上传 PNG、JPEG 或 WebP 图片', field);
/** Too many pixels, or a shape no cover or ad has (shared/image-limits.ts says which). */
export const imageRefused = (why: string, field: string) => badRequest(why, field);
export const adNotFound = () => notFound('广告不存在');
/** An edit that names none of the fields it may change (only unknown keys): nothing to save. */
export const nothingToChange = () => badRequest('没有要修改的内容：请填写至少一项');
/** Someone saved the book since this operator opened it: nothing is written; reload and edit again. */
export const bookChangedMeanwhile = () => new AppError(409, 409, '内容已被他人修改，请刷新后再试');
/** A book some reader bought a chapter of, or spent coins on, is kept (their purchases stay readable). */
export const bookHasBuyers = () =>
  new AppError(409, 409, '已有读者购买或消费过这本书的章节，不能删除；如需让读者看不到，请下架');
