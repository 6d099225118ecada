import type { ReactNode } from 'react';
import './copy-field.css';

/**
 * One line of a <dl>: a label, its value (an account, a password) and 复制, which hands both to `onCopy`. Without
 * a value it shows `empty` (a hint of how to get one), or '—', and nothing to copy.
 */
export function CopyField(props: {
  label: string;
  value: string;
  testId: string;
  /** The screen's own class, which may set --copy-field-height and --copy-field-size. */
  className?: string;
  /** Shown instead of '—' when there is no value. */
  empty?: ReactNode;
  onCopy(value: string, label: string): void;
}) {
  const { label, value } = props;
  return (
    <div className={props.className ? `copy-field ${props.className}` : 'copy-field'}>
      <dt>{label}</dt>
      <dd>
        <span data-testid={props.testId}>{value || props.empty || '—'}</span>
        {value && (
          <button type="button" onClick={() => props.onCopy(value, label)}>
            复制
          </button>
        )}
      </dd>
    </div>
  );
}
