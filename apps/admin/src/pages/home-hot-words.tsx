import { DragSortTable } from '@ant-design/pro-components';
import { App, Button, Col, Input, Row, Skeleton, Space, Typography } from 'antd';
import { useCallback, useEffect, useRef, useState } from 'react';
import { adminRoutes, call, shown } from '../api.ts';
import { CATALOGUE_WRITERS, useCan } from '../session.tsx';
import { SearchTermsCard } from './home-search-terms.tsx';

interface Word {
  key: number;
  word: string;
}

const MAX_WORDS = 30;

/**
 * The readers' search page's hot words, in order (at most 30, none empty or repeated); beside them, what readers
 * searched: a top search becomes a hot word (added to the list being edited, saved with it).
 */
export function HotWordsTab() {
  const { message } = App.useApp();
  const canWrite = useCan(CATALOGUE_WRITERS);
  const [saved, setSaved] = useState<string[]>();
  const [words, setWords] = useState<Word[]>([]);
  const [draft, setDraft] = useState('');
  const nextKey = useRef(1);

  const show = useCallback((list: string[]) => {
    setSaved(list);
    setWords(list.map((word) => ({ key: nextKey.current++, word })));
  }, []);

  useEffect(() => {
    shown(call(adminRoutes.hotWords, {})).then((list) => show(list ?? []));
  }, [show]);

  if (!saved) return <Skeleton active />;
  const dirty = words.map((w) => w.word).join('\n') !== saved.join('\n');

  /** Adds a word at the end of the list being edited; false when it is already there. */
  const append = (word: string) => {
    if (words.some((w) => w.word === word)) {
      message.warning('热词不能重复');
      return false;
    }
    setWords([...words, { key: nextKey.current++, word }]);
    return true;
  };

  const add = () => {
    const word = draft.trim();
    if (word && append(word)) setDraft('');
  };

  const fromSearches = (keyword: string) => {
    if (append(keyword)) message.success(`已把「${keyword}」加到热词列表末尾，保存后生效`);
  };

  const save = async () => {
    const list = words.map((w) => w.word.trim());
    const answer = await shown(call(adminRoutes.setHotWords, { body: { words: list } }));
    if (answer) {
      show(answer);
      message.success('已保存');
    }
  };

  return (
    <Row gutter={[16, 16]} align="top">
      <Col xs={24} xl={11}>
        <DragSortTable<Word & { sort?: number }>
          rowKey="key"
          dragSortKey={canWrite ? 'sort' : undefined}
          dataSource={words}
          onDragSortEnd={(_b, _a, next) => setWords(next)}
          search={false}
          options={false}
          pagination={false}
          size="small"
          headerTitle={`热词（${words.length}/${MAX_WORDS}）`}
          tooltip="读者搜索页按此顺序显示"
          columns={[
            ...(canWrite ? [{ title: '排序', dataIndex: 'sort', width: 60 }] : []),
            { title: '#', key: 'index', width: 50, render: (_, __, i) => i + 1 },
            {
              title: '热词',
              dataIndex: 'word',
              render: (_, row) =>
                canWrite ? (
                  <Input
                    value={row.word}
                    maxLength={20}
                    onChange={(e) =>
                      setWords(words.map((w) => (w.key === row.key ? { ...w, word: e.target.value } : w)))
                    }
                  />
                ) : (
                  row.word
                ),
            },
            ...(canWrite
              ? [
                  {
                    title: '操作',
                    key: 'remove',
                    width: 80,
                    render: (_: unknown, row: Word) => (
                      <Button
                        type="link"
                        danger
                        size="small"
                        onClick={() => setWords(words.filter((w) => w.key !== row.key))}
                      >
                        删除
                      </Button>
                    ),
                  },
                ]
              : []),
          ]}
        />
        {canWrite && (
          <Space style={{ marginTop: 12 }} wrap>
            <Input
              placeholder="新热词"
              value={draft}
              maxLength={20}
              style={{ width: 200 }}
              onChange={(e) => setDraft(e.target.value)}
              onPressEnter={add}
            />
            <Button onClick={add} disabled={words.length >= MAX_WORDS || !draft.trim()}>
              添加
            </Button>
            <Button type="primary" onClick={save} disabled={!dirty}>
              保存
            </Button>
            {dirty && <Typography.Text type="warning">有未保存的修改</Typography.Text>}
          </Space>
        )}
      </Col>
      <Col xs={24} xl={13}>
        <SearchTermsCard
          hotWords={words.map((w) => w.word.trim())}
          canWrite={canWrite}
          full={words.length >= MAX_WORDS}
          onHotWord={fromSearches}
        />
      </Col>
    </Row>
  );
}
