import type * as importer from '../modules/importer/index.ts';

const OUTCOME: Record<string, string> = {
  added: '新增',
  unchanged: '未变',
  replaced: '已替换',
  planned: '将导入',
};

/** What an import did (or, with --dry-run, would do), a line per chapter. */
export function printReport(report: importer.ImportReport) {
  const book =
    report.bookId === null ? '（新书或同名书）' : `#${report.bookId}${report.created ? '（新建）' : ''}`;
  console.log(`《${report.title}》 ${book}`);
  for (const c of report.chapters) {
    const price = c.price > 0 ? `${c.price} 阅币` : '免费';
    console.log(`  第${c.number}话  ${c.title}  ${c.pages} 页  ${price}  ${OUTCOME[c.outcome] ?? c.outcome}`);
  }
}
