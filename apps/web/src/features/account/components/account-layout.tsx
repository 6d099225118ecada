import { Button, Input, type InputProps } from 'antd-mobile';
import { type FormEvent, type ReactNode, useState } from 'react';
import { ServiceLinks } from '../../../components/service-links.tsx';
import { TopBar } from '../../../components/top-bar.tsx';
import '../account.css';

/** The frame every account screen shares: top bar, an optional intro, the content, service hours and links. */
export function AccountPage(props: {
  title: string;
  intro?: ReactNode;
  hours?: string;
  children: ReactNode;
}) {
  return (
    <main className="page page-grey account-page">
      <TopBar title={props.title} />
      {props.intro && <p className="page-intro">{props.intro}</p>}
      {props.children}
      <p className="account-hours">客服在线时间：{props.hours ?? '11:00-21:00'}</p>
      <ServiceLinks />
    </main>
  );
}

/** A card of labelled fields with one submit button under it; validation is the screen's (spec section 5). */
export function AccountForm(props: {
  onSubmit(): void;
  submitText: string;
  loading: boolean;
  children: ReactNode;
  error?: string;
}) {
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!props.loading) props.onSubmit();
  };
  return (
    <form className="account-form" onSubmit={submit} noValidate>
      <div className="account-card">{props.children}</div>
      {props.error && (
        <p className="account-error" role="alert">
          {props.error}
        </p>
      )}
      <Button
        block
        type="submit"
        color="primary"
        shape="rounded"
        size="large"
        className="account-submit"
        loading={props.loading}
      >
        {props.submitText}
      </Button>
    </form>
  );
}

export function Field(props: { label: string; children: ReactNode }) {
  return (
    // biome-ignore lint/a11y/noLabelWithoutControl: the control is antd-mobile's Input, rendered as the child.
    <label className="account-field">
      <span className="account-label">{props.label}</span>
      {props.children}
    </label>
  );
}

/** antd-mobile's Input with the look of these screens; the browser submits the form on Enter. */
export function TextInput(props: InputProps) {
  return <Input className="account-input" clearable {...props} />;
}

/** A field's text and its setter, spread onto an InputField as its value and onChange. */
export function useText() {
  const [value, onChange] = useState('');
  return { value, onChange };
}

/** A labelled text field: Field around a TextInput. */
export function InputField({ label, ...input }: InputProps & { label: string }) {
  return (
    <Field label={label}>
      <TextInput {...input} />
    </Field>
  );
}

/** A password field: hidden as typed, up to the server's 128 characters; a new password unless told otherwise. */
export const PasswordField = (props: InputProps & { label: string }) => (
  <InputField type="password" maxLength={128} autoComplete="new-password" {...props} />
);
