import { PlusOutlined } from '@ant-design/icons';
import { ModalForm, PageContainer, ProFormDigit, ProFormText, ProTable } from '@ant-design/pro-components';
import type { Branch } from '@yueman/contract/admin';
import { App, Button, Form, Tag } from 'antd';
import { useCallback, useEffect, useState } from 'react';
import { adminRoutes, call, shown } from '../api.ts';
import { CATALOGUE_WRITERS, useCan } from '../session.tsx';

type Fields = Omit<Branch, 'branchId'> & { branchId?: number };

const empty = (text: string) => text || <span style={{ color: '#bfbfbf' }}>未设置</span>;

/** Each promotion branch's download addresses and customer-service contacts (common info; -2 the default). */
export default function BranchesPage() {
  const { message } = App.useApp();
  const canWrite = useCan(CATALOGUE_WRITERS);
  const [rows, setRows] = useState<Branch[]>();
  // The branch being edited; null: a new one.
  const [editing, setEditing] = useState<Branch | null>();
  const [form] = Form.useForm<Fields>();

  const load = useCallback(async () => {
    setRows((await shown(call(adminRoutes.branches, {}))) ?? []);
  }, []);
  useEffect(() => {
    load();
  }, [load]);

  const open = (branch: Branch | null) => {
    setEditing(branch);
    form.setFieldsValue(
      branch ?? {
        branchId: undefined,
        name: '',
        appDownloadUrl: '',
        appDownloadHome: '',
        customerServiceEmail: '',
        customerServiceQq: '',
      },
    );
  };

  const save = async (values: Fields) => {
    const branchId = editing ? editing.branchId : values.branchId;
    if (branchId === undefined) return false;
    const { branchId: _, ...body } = values;
    const fields = {
      name: body.name?.trim() ?? '',
      appDownloadUrl: body.appDownloadUrl?.trim() ?? '',
      appDownloadHome: body.appDownloadHome?.trim() ?? '',
      customerServiceEmail: body.customerServiceEmail?.trim() ?? '',
      customerServiceQq: body.customerServiceQq?.trim() ?? '',
    };
    const saved = await shown(call(adminRoutes.saveBranch, { params: { branchId }, body: fields }, { form }));
    if (!saved) return false;
    message.success('已保存');
    setEditing(undefined);
    await load();
    return true;
  };

  return (
    <PageContainer title="渠道客服">
      <ProTable<Branch>
        rowKey="branchId"
        loading={rows === undefined}
        dataSource={rows ?? []}
        search={false}
        pagination={false}
        headerTitle="各推广渠道的名称、下载地址与客服联系方式（渠道 -2 为默认，其他渠道未设置时使用它）"
        options={{ density: false, setting: false, reload: load }}
        toolBarRender={() =>
          canWrite
            ? [
                <Button key="add" type="primary" icon={<PlusOutlined />} onClick={() => open(null)}>
                  添加渠道
                </Button>,
              ]
            : []
        }
        columns={[
          {
            title: '渠道',
            dataIndex: 'branchId',
            width: 120,
            render: (_, r) => (r.branchId === -2 ? <Tag color="blue">默认 (-2)</Tag> : r.branchId),
          },
          {
            title: '名称',
            dataIndex: 'name',
            width: 140,
            render: (_, r) => empty(r.name),
          },
          {
            title: 'APP 下载地址',
            dataIndex: 'appDownloadUrl',
            ellipsis: true,
            render: (_, r) => empty(r.appDownloadUrl),
          },
          {
            title: '下载页',
            dataIndex: 'appDownloadHome',
            ellipsis: true,
            render: (_, r) => empty(r.appDownloadHome),
          },
          {
            title: '客服邮箱',
            dataIndex: 'customerServiceEmail',
            render: (_, r) => empty(r.customerServiceEmail),
          },
          {
            title: '客服 QQ',
            dataIndex: 'customerServiceQq',
            width: 140,
            render: (_, r) => empty(r.customerServiceQq),
          },
          ...(canWrite
            ? [
                {
                  title: '操作',
                  key: 'edit',
                  width: 90,
                  render: (_: unknown, r: Branch) => (
                    <Button type="link" size="small" onClick={() => open(r)}>
                      编辑
                    </Button>
                  ),
                },
              ]
            : []),
        ]}
      />
      <ModalForm<Fields>
        name="branch"
        title={editing ? `编辑渠道 ${editing.branchId === -2 ? '默认 (-2)' : editing.branchId}` : '添加渠道'}
        open={editing !== undefined}
        form={form}
        width={560}
        layout="horizontal"
        labelCol={{ span: 6 }}
        onOpenChange={(isOpen) => {
          if (!isOpen) setEditing(undefined);
        }}
        onFinish={save}
      >
        {editing === null && (
          <ProFormDigit
            name="branchId"
            label="渠道 ID"
            min={-2}
            fieldProps={{ precision: 0 }}
            rules={[{ required: true, message: '请输入渠道 ID' }]}
          />
        )}
        <ProFormText
          name="name"
          label="名称"
          placeholder="运营对渠道的称呼，如 抖音一号（营收按渠道显示）"
          fieldProps={{ maxLength: 30 }}
        />
        <ProFormText name="appDownloadUrl" label="APP 下载地址" placeholder="https://…" />
        <ProFormText name="appDownloadHome" label="下载页" placeholder="https://…" />
        <ProFormText name="customerServiceEmail" label="客服邮箱" placeholder="service@example.com" />
        <ProFormText name="customerServiceQq" label="客服 QQ" placeholder="数字，5-15 位" />
      </ModalForm>
    </PageContainer>
  );
}
