import type { ImageWidth } from '../../lib/images.ts';

/** Reader pages at 1000 px on high-density screens, 500 otherwise (docs/api.md section 5). */
export const pageImageWidth = (): ImageWidth =>
  typeof window !== 'undefined' && window.devicePixelRatio >= 2 ? 1000 : 500;

/**
 * A page image's alternative text: 《书名》 第N话 第M页; a page cut into n slices side by side names each slice
 * (第M页 1/2, 2/2).
 */
export function pageAlt(bookName: string, chapter: number, page: number, slice = 0, slices = 1): string {
  const book = bookName ? `《${bookName}》 ` : '';
  return `${book}第${chapter}话 第${page}页${slice && slices > 1 ? ` ${slice}/${slices}` : ''}`;
}

export const MESSAGES = {
  invalid: '当前书本信息未加载，请返回主页重新操作',
  first: '已经是第一章啦',
  last: '已经是最后一章啦',
  noMore: '没有更多章节啦 ^_^',
  noUser: '信息获取失败，请返回稍后重试',
  vip: '开通VIP，海量漫画免费看',
  notVipFree: '本书不属于VIP免费阅读作品，请购买阅读',
  bought: '购买成功',
} as const;
