import { Popup } from 'antd-mobile';
import { useEffect, useId, useRef } from 'react';
import { SPEED_STEPS } from '../auto-scroll-speed.ts';
import { useReaderSettings } from '../reader-settings-store.ts';
import type { SpendOrder } from '../spend-order.ts';

/** 自动解锁顺序's choices, as the sheet names them. */
const SPEND_ORDER_LABELS: Record<SpendOrder, string> = {
  ticket_first: '阅读券→等免→阅币',
  wait_first: '等免→阅读券→阅币',
  coins_only: '只用阅币',
};

/** A switch the keyboard reaches and works (Tab, Enter, Space): a button with role switch, named by its row. */
function SettingSwitch({
  label,
  checked,
  onChange,
}: {
  label: string;
  checked: boolean;
  onChange(on: boolean): void;
}) {
  const id = useId();
  return (
    <div className="reader-sheet-row">
      <span id={id} className="reader-sheet-label">
        {label}
      </span>
      <button
        type="button"
        role="switch"
        aria-checked={checked}
        aria-labelledby={id}
        className={`reader-switch ${checked ? 'is-on' : ''}`}
        onClick={() => onChange(!checked)}
      />
    </div>
  );
}

const FOCUSABLE = 'button:not([disabled]), input:not([disabled]), [tabindex]:not([tabindex="-1"])';

/**
 * The reader's settings sheet (设置): 自动滚动 with its speed, 页面间隙, 夜间模式, kept on this device
 * (reader-settings-store.ts). A dialog for the keyboard: it takes the focus when it opens, keeps Tab inside,
 * and Escape closes it. Its own switches and slider rather than antd-mobile's, which take no focus.
 * Loaded on the first tap of 设置 (antd-mobile's Popup brings its animation library).
 */
export default function ReaderSettings({
  visible,
  onClose,
  onAutoScroll,
}: {
  visible: boolean;
  onClose(): void;
  /** 自动滚动 turned on or off: the reader starts or stops it. */
  onAutoScroll(on: boolean): void;
}) {
  const { autoScroll, speed, gaps, night, spendOrder, setSpeed, setGaps, setNight, setSpendOrder } =
    useReaderSettings();
  const orderId = useId();
  const dialog = useRef<HTMLDivElement>(null);
  const titleId = useId();
  const speedId = useId();

  useEffect(() => {
    if (!visible) return;
    dialog.current?.focus({ preventScroll: true });
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') {
        e.preventDefault();
        onClose();
      }
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [visible, onClose]);

  // Tab and Shift+Tab go round the sheet's controls.
  const keepFocus = (e: React.KeyboardEvent) => {
    if (e.key !== 'Tab' || !dialog.current) return;
    const items = [...dialog.current.querySelectorAll<HTMLElement>(FOCUSABLE)];
    const first = items[0];
    const last = items[items.length - 1];
    if (!first || !last) return;
    const at = document.activeElement;
    if (e.shiftKey && (at === first || at === dialog.current)) {
      e.preventDefault();
      last.focus();
    } else if (!e.shiftKey && at === last) {
      e.preventDefault();
      first.focus();
    }
  };

  return (
    <Popup
      visible={visible}
      onMaskClick={onClose}
      onClose={onClose}
      bodyClassName={`reader-sheet ${night ? 'is-night' : ''}`}
      maskClassName="reader-sheet-mask"
    >
      <div
        ref={dialog}
        className="reader-sheet-dialog"
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        tabIndex={-1}
        onKeyDown={keepFocus}
      >
        <div className="reader-sheet-head">
          <h2 id={titleId} className="reader-sheet-title">
            设置
          </h2>
          <button type="button" className="reader-sheet-close" aria-label="关闭设置" onClick={onClose} />
        </div>
        <SettingSwitch label="自动滚动" checked={autoScroll} onChange={onAutoScroll} />
        <div className="reader-sheet-speed">
          <label htmlFor={speedId} className="reader-sheet-label">
            滚动速度
          </label>
          <span className="reader-sheet-end" aria-hidden="true">
            慢
          </span>
          <input
            id={speedId}
            type="range"
            className="reader-slider"
            min={1}
            max={SPEED_STEPS}
            step={1}
            value={speed}
            aria-valuetext={`${speed}档`}
            style={{ '--fill': `${((speed - 1) / (SPEED_STEPS - 1)) * 100}%` } as React.CSSProperties}
            onChange={(e) => setSpeed(Number(e.target.value))}
          />
          <span className="reader-sheet-end" aria-hidden="true">
            快
          </span>
          <output className="reader-sheet-value" htmlFor={speedId}>
            {speed}档
          </output>
        </div>
        <SettingSwitch label="页面间隙" checked={gaps} onChange={setGaps} />
        <SettingSwitch label="夜间模式" checked={night} onChange={setNight} />
        <div className="reader-sheet-row">
          <label htmlFor={orderId} className="reader-sheet-label">
            自动解锁顺序
          </label>
          <select
            id={orderId}
            className="reader-sheet-select"
            value={spendOrder}
            onChange={(e) => setSpendOrder(e.target.value as SpendOrder)}
          >
            {Object.entries(SPEND_ORDER_LABELS).map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </div>
      </div>
    </Popup>
  );
}
