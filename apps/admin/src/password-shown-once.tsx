import { Modal, Space, Typography } from 'antd';
import type { ReactNode } from 'react';

/**
 * A generated password shown to the operator this once (an operator's own, or a reader's reset): copyable, and gone
 * from the page when the dialog closes (the server never answers it again).
 */
export function PasswordShownOnce(props: {
  /** The password, or undefined when the dialog is closed. */
  password: string | undefined;
  title: string;
  okText: string;
  /** Whose password it is: the line above it. */
  whose: ReactNode;
  testId: string;
  onClose(): void;
}) {
  return (
    <Modal
      title={props.title}
      open={props.password !== undefined}
      onOk={props.onClose}
      onCancel={props.onClose}
      cancelButtonProps={{ style: { display: 'none' } }}
      okText={props.okText}
      destroyOnHidden
    >
      {props.password !== undefined && (
        <Space direction="vertical">
          <span>{props.whose}（只显示这一次）：</span>
          <Typography.Paragraph
            copyable={{ text: props.password }}
            code
            style={{ fontSize: 18 }}
            data-testid={props.testId}
          >
            {props.password}
          </Typography.Paragraph>
        </Space>
      )}
    </Modal>
  );
}
