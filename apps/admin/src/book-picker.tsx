import { Select } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { adminRoutes, call } from './api.ts';

export interface PickedBook {
  bookId: number;
  title: string;
}

/**
 * Picks a book by title or author (GET /api/admin/books?q=) or by its id (digits: GET /api/admin/books/:id).
 */
export function BookPicker({
  onPick,
  disabled,
  exclude,
}: {
  onPick: (book: PickedBook) => void;
  disabled?: boolean;
  exclude: number[];
}) {
  const [options, setOptions] = useState<{ label: string; value: number; title: string }[]>([]);
  const [text, setText] = useState('');
  const [loading, setLoading] = useState(false);
  const asked = useRef(0);

  useEffect(() => {
    const q = text.trim();
    if (!q) {
      setOptions([]);
      return;
    }
    const ask = ++asked.current;
    const timer = setTimeout(async () => {
      setLoading(true);
      const found: { label: string; value: number; title: string }[] = [];
      if (/^\d{1,10}$/.test(q)) {
        const byId = await call(adminRoutes.book, { params: { id: Number(q) } }, { silent: true }).catch(
          () => undefined,
        );
        if (byId)
          found.push({
            label: `${byId.title} · ${byId.author}（ID ${byId.id}）`,
            value: byId.id,
            title: byId.title,
          });
      }
      const page = await call(adminRoutes.books, { query: { q, page: 1, size: 20 } }, { silent: true }).catch(
        () => undefined,
      );
      for (const b of page?.list ?? []) {
        if (!found.some((f) => f.value === b.id)) {
          found.push({ label: `${b.title} · ${b.author}（ID ${b.id}）`, value: b.id, title: b.title });
        }
      }
      if (ask === asked.current) {
        setOptions(found);
        setLoading(false);
      }
    }, 300);
    return () => clearTimeout(timer);
  }, [text]);

  return (
    <Select<number>
      showSearch
      value={null}
      placeholder="输入书名、作者或书籍 ID 添加"
      style={{ width: 360 }}
      disabled={disabled}
      filterOption={false}
      loading={loading}
      onSearch={setText}
      notFoundContent={text.trim() ? (loading ? '搜索中…' : '没有找到') : null}
      options={options.map((o) => ({ ...o, disabled: exclude.includes(o.value) }))}
      onSelect={(value: number) => {
        const picked = options.find((o) => o.value === value);
        if (picked) onPick({ bookId: picked.value, title: picked.title });
        setText('');
      }}
      data-testid="book-picker"
    />
  );
}
