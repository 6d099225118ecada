import type { Book } from '@yueman/contract/admin';
import { Alert, Button, Space, Table } from 'antd';
import { STATUS_NAMES } from '../names.ts';

/** The book's fields an operator edits, by their names on the form. */
export const BOOK_FIELD_NAMES = {
  title: '书名',
  author: '作者',
  description: '简介',
  aliases: '别名',
  categoryId: '分类',
  status: '状态',
  vipFree: 'VIP免费',
  published: '上架',
  releaseDays: '更新日',
} as const;

/** ISO weekdays (1 Monday … 7 Sunday) as the console names them. */
export const WEEKDAY_NAMES = ['周一', '周二', '周三', '周四', '周五', '周六', '周日'] as const;
export type EditedField = keyof typeof BOOK_FIELD_NAMES;

export interface ConflictRow {
  field: EditedField;
  name: string;
  opened: string;
  saved: string;
  mine: string;
}

/**
 * Someone saved the book after this operator opened it: each field the other save or this operator changed, as it
 * was when this operator opened the book, as it is saved now, and as this operator has it in the form.
 */
export function conflictRows(
  opened: Pick<Book, EditedField>,
  saved: Pick<Book, EditedField>,
  mine: Partial<Pick<Book, EditedField>>,
  categoryName: (id: number) => string,
): ConflictRow[] {
  const text = (field: EditedField, value: unknown): string => {
    if (value === undefined || value === null || value === '') return '（空）';
    if (field === 'categoryId') return categoryName(value as number);
    if (field === 'status') return STATUS_NAMES[value as Book['status']] ?? String(value);
    if (field === 'published') return value ? '上架' : '下架';
    if (field === 'releaseDays')
      return (value as number[]).length
        ? (value as number[]).map((d) => WEEKDAY_NAMES[d - 1]).join('、')
        : '（空）';
    if (typeof value === 'boolean') return value ? '是' : '否';
    if (Array.isArray(value)) return value.length ? value.join('、') : '（空）';
    return String(value);
  };
  const rows: ConflictRow[] = [];
  for (const field of Object.keys(BOOK_FIELD_NAMES) as EditedField[]) {
    const before = text(field, opened[field]);
    const now = text(field, saved[field]);
    const typed = text(field, mine[field] ?? opened[field]);
    if (before === now && typed === before) continue;
    rows.push({
      field,
      name: BOOK_FIELD_NAMES[field],
      opened: before,
      saved: now,
      mine: typed === before ? '未修改（保留已保存的版本）' : typed,
    });
  }
  return rows;
}

/** The conflict shown above the form: what changed in the saved version, and the two ways on. */
export function ConflictNotice(props: { rows: ConflictRow[]; onSaveMine(): void; onTakeSaved(): void }) {
  return (
    <Alert
      type="warning"
      showIcon
      style={{ marginBottom: 16 }}
      data-testid="edit-conflict"
      message="保存失败：你打开这本书之后，别人保存了修改。你填写的内容仍保留在表单中。"
      description={
        <Space direction="vertical" style={{ width: '100%' }}>
          {props.rows.length > 0 ? (
            <Table<ConflictRow>
              rowKey="field"
              size="small"
              pagination={false}
              dataSource={props.rows}
              columns={[
                { title: '字段', dataIndex: 'name', width: 90 },
                { title: '你打开时', dataIndex: 'opened' },
                { title: '已保存的版本', dataIndex: 'saved' },
                { title: '你填写的', dataIndex: 'mine' },
              ]}
            />
          ) : (
            <span>双方都没有改动这些字段（别人可能只更换了封面或修改了章节）。</span>
          )}
          <Space>
            <Button type="primary" danger onClick={props.onSaveMine}>
              用我填写的覆盖保存
            </Button>
            <Button onClick={props.onTakeSaved}>放弃我的修改，载入已保存的版本</Button>
          </Space>
        </Space>
      }
    />
  );
}
