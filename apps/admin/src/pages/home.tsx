import { PageContainer } from '@ant-design/pro-components';
import { Tabs } from 'antd';
import { useSearchParams } from 'react-router';
import { AdsTab } from './home-ads.tsx';
import { HotWordsTab } from './home-hot-words.tsx';
import { SectionsTab } from './home-sections.tsx';

const TABS = ['sections', 'hot-words', 'ads'] as const;

/** The readers' home page: its sections' books in order, the hot words, the carousel's ads. */
export default function HomePage() {
  const [params, setParams] = useSearchParams();
  const tab = TABS.find((t) => t === params.get('tab')) ?? 'sections';
  return (
    <PageContainer title="首页">
      <Tabs
        activeKey={tab}
        onChange={(key) => setParams({ tab: key }, { replace: true })}
        destroyInactiveTabPane
        items={[
          { key: 'sections', label: '版块', children: <SectionsTab /> },
          { key: 'hot-words', label: '热词', children: <HotWordsTab /> },
          { key: 'ads', label: '轮播广告', children: <AdsTab /> },
        ]}
      />
    </PageContainer>
  );
}
