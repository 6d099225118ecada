import { ServiceLinks } from '../../../components/service-links.tsx';
import { WechatNotice } from '../../../components/wechat-notice.tsx';

/** What chapter-end.tsx shows below the last page, in a chunk of its own. */
export default function ChapterEndBody({ nextNumber, onNext }: { nextNumber: number; onNext(): void }) {
  return (
    <>
      <p>本话完</p>
      {nextNumber ? (
        <button type="button" className="reader-end-next" onClick={onNext}>
          继续阅读下一话
        </button>
      ) : (
        <>
          <p className="reader-end-last">已经是最新一话啦，敬请期待</p>
          <WechatNotice kind="new_chapter" />
        </>
      )}
      <ServiceLinks />
    </>
  );
}
