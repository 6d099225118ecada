import { PlusOutlined, UploadOutlined } from '@ant-design/icons';
import {
  DragSortTable,
  ModalForm,
  ProFormDateTimeRangePicker,
  ProFormDependency,
  ProFormDigit,
  ProFormSelect,
  ProFormSwitch,
  ProFormText,
} from '@ant-design/pro-components';
import type { Ad, JumpType } from '@yueman/contract/admin';
import { App, Button, Form, Popconfirm, Space, Tag, Typography, Upload, type UploadFile } from 'antd';
import type { Dayjs } from 'dayjs';
import { useCallback, useEffect, useState } from 'react';
import { adminRoutes, call, imageUrl, shown } from '../api.ts';
import { chinaPickerValue, dateTime, inChinaTime, instantOfPicker } from '../format.ts';
import { JUMP_NAMES } from '../names.ts';
import { CATALOGUE_WRITERS, useCan } from '../session.tsx';

interface Fields {
  image?: UploadFile[];
  jumpType: JumpType;
  bizId?: number | null;
  url?: string;
  active: boolean;
  range?: [Dayjs | null, Dayjs | null];
}

const jumpOptions = ([-1, -2, 2, 3] as JumpType[]).map((t) => ({ label: JUMP_NAMES[t], value: t }));

function target(ad: Ad) {
  if (ad.jumpType === 2) return `书籍 ID ${ad.bizId ?? '-'}`;
  if (ad.jumpType === 3) return '充值中心';
  return ad.url || '-';
}

/** The ad's fields as the server takes them (JSON; the multipart add sends the same as text). */
function bodyOf(values: Fields) {
  const [startsAt, endsAt] = values.range ?? [null, null];
  return {
    jumpType: values.jumpType,
    bizId: values.jumpType === 2 ? (values.bizId ?? null) : null,
    url: values.jumpType === -1 || values.jumpType === -2 ? (values.url ?? '').trim() : '',
    active: values.active,
    startsAt: instantOfPicker(startsAt),
    endsAt: instantOfPicker(endsAt),
  };
}

/** The home carousel's ads: add with an image, edit, delete, order by drag. */
export function AdsTab() {
  const { message } = App.useApp();
  const canWrite = useCan(CATALOGUE_WRITERS);
  const [ads, setAds] = useState<Ad[]>();
  // The ad being edited; null: a new one.
  const [editing, setEditing] = useState<Ad | null>();
  const [form] = Form.useForm<Fields>();

  const load = useCallback(async () => {
    const answer = await shown(call(adminRoutes.ads, {}));
    setAds(answer?.ads ?? []);
  }, []);
  useEffect(() => {
    load();
  }, [load]);

  const open = (ad: Ad | null) => {
    setEditing(ad);
    form.resetFields();
    const values: Fields = ad
      ? {
          jumpType: ad.jumpType,
          bizId: ad.bizId,
          url: ad.url,
          active: ad.active,
          range:
            ad.startsAt || ad.endsAt
              ? [chinaPickerValue(ad.startsAt), chinaPickerValue(ad.endsAt)]
              : undefined,
        }
      : { jumpType: 2, active: true, image: [] };
    form.setFieldsValue(values as Parameters<typeof form.setFieldsValue>[0]);
  };

  const save = async (values: Fields) => {
    const body = bodyOf(values);
    if (editing) {
      if (!(await shown(call(adminRoutes.editAd, { params: { id: editing.id }, body }, { form }))))
        return false;
    } else {
      const file = values.image?.[0]?.originFileObj;
      if (!file) {
        form.setFields([{ name: 'image', errors: ['请选择广告图片'] }]);
        return false;
      }
      const multipart = { image: file, ...body };
      if (!(await shown(call(adminRoutes.addAd, { multipart }, { form })))) return false;
    }
    message.success('已保存');
    setEditing(undefined);
    await load();
    return true;
  };

  const remove = async (ad: Ad) => {
    if (await shown(call(adminRoutes.deleteAd, { params: { id: ad.id } }))) message.success('已删除');
    await load();
  };

  const reorder = async (next: Ad[]) => {
    setAds(next);
    if (await shown(call(adminRoutes.arrangeAds, { body: { ids: next.map((a) => a.id) } })))
      message.success('顺序已保存');
    else await load();
  };

  return (
    <>
      <DragSortTable<Ad>
        rowKey="id"
        loading={ads === undefined}
        dataSource={ads ?? []}
        dragSortKey={canWrite ? 'sort' : undefined}
        onDragSortEnd={(_b, _a, next) => reorder(next)}
        search={false}
        pagination={false}
        options={{ density: false, setting: false, reload: load }}
        headerTitle="首页轮播广告（拖动把手调整顺序，松手即保存）"
        toolBarRender={() =>
          canWrite
            ? [
                <Button key="add" type="primary" icon={<PlusOutlined />} onClick={() => open(null)}>
                  添加广告
                </Button>,
              ]
            : []
        }
        columns={[
          ...(canWrite ? [{ title: '排序', dataIndex: 'sort', width: 60 }] : []),
          {
            title: '图片',
            dataIndex: 'imgPath',
            width: 180,
            render: (_, ad) => (
              <img className="ad-preview" src={imageUrl(ad.imgPath, 500)} alt={`广告 ${ad.id}`} />
            ),
          },
          { title: 'ID', dataIndex: 'id', width: 70 },
          {
            title: '跳转',
            dataIndex: 'jumpType',
            render: (_, ad) => (
              <Space direction="vertical" size={0}>
                <Tag>{JUMP_NAMES[ad.jumpType] ?? ad.jumpType}</Tag>
                <Typography.Text type="secondary" ellipsis style={{ maxWidth: 320 }}>
                  {target(ad)}
                </Typography.Text>
              </Space>
            ),
          },
          {
            title: '状态',
            dataIndex: 'active',
            width: 90,
            render: (_, ad) => (ad.active ? <Tag color="green">启用</Tag> : <Tag>停用</Tag>),
          },
          {
            title: inChinaTime('投放时间'),
            key: 'time',
            width: 300,
            render: (_, ad) =>
              ad.startsAt || ad.endsAt ? `${dateTime(ad.startsAt)} 至 ${dateTime(ad.endsAt)}` : '长期',
          },
          ...(canWrite
            ? [
                {
                  title: '操作',
                  key: 'actions',
                  width: 130,
                  render: (_: unknown, ad: Ad) => (
                    <Space size={0}>
                      <Button type="link" size="small" onClick={() => open(ad)}>
                        编辑
                      </Button>
                      <Popconfirm title="删除这条广告？" onConfirm={() => remove(ad)}>
                        <Button type="link" size="small" danger>
                          删除
                        </Button>
                      </Popconfirm>
                    </Space>
                  ),
                },
              ]
            : []),
        ]}
      />
      <ModalForm<Fields>
        name="ad"
        title={editing ? `编辑广告 ${editing.id}` : '添加广告'}
        open={editing !== undefined}
        form={form}
        width={560}
        dateFormatter={false}
        onOpenChange={(isOpen) => {
          if (!isOpen) setEditing(undefined);
        }}
        onFinish={save}
      >
        {editing === null && (
          <Form.Item
            name="image"
            label="广告图片"
            valuePropName="fileList"
            getValueFromEvent={(e: { fileList: UploadFile[] }) => e.fileList.slice(-1)}
            rules={[{ required: true, message: '请选择广告图片' }]}
          >
            <Upload
              accept="image/png,image/jpeg,image/webp"
              maxCount={1}
              beforeUpload={() => false}
              listType="picture"
            >
              <Button icon={<UploadOutlined />}>选择图片</Button>
            </Upload>
          </Form.Item>
        )}
        {editing && (
          <Form.Item label="广告图片">
            <img className="ad-preview" src={imageUrl(editing.imgPath, 500)} alt="" />
          </Form.Item>
        )}
        <ProFormSelect name="jumpType" label="点击后" options={jumpOptions} rules={[{ required: true }]} />
        <ProFormDependency name={['jumpType']}>
          {({ jumpType }) =>
            jumpType === 2 ? (
              <ProFormDigit
                name="bizId"
                label="书籍 ID"
                min={1}
                fieldProps={{ precision: 0 }}
                rules={[{ required: true, message: '请输入书籍 ID' }]}
              />
            ) : jumpType === -1 || jumpType === -2 ? (
              <ProFormText
                name="url"
                label="链接"
                placeholder="https://… 或站内路径 /home"
                rules={[{ required: true, message: '请输入链接' }]}
              />
            ) : null
          }
        </ProFormDependency>
        <ProFormSwitch name="active" label="启用" />
        <ProFormDateTimeRangePicker
          name="range"
          label="投放时间（北京时间；可选，留空为长期）"
          fieldProps={{ allowEmpty: [true, true], style: { width: '100%' } }}
        />
      </ModalForm>
    </>
  );
}
