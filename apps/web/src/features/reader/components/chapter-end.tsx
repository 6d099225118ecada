import { ServiceLinks } from '../../../components/service-links.tsx';
import { WechatNotice } from '../../../components/wechat-notice.tsx';

/** Below the last page: 本话完, the way on to the next chapter (or word that this is the newest), service links. */
export function ChapterEnd({ nextNumber, onNext }: { nextNumber: number; onNext(): void }) {
  return (
    <div className="reader-end">
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
    </div>
  );
}
