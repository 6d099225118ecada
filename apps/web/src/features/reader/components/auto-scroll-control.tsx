import { SPEED_STEPS } from '../auto-scroll-speed.ts';

/**
 * The floating control while auto-scroll is on: slower, pause / resume, faster, and off. The buttons at the ends
 * of the speed range say so (aria-disabled) but stay focusable, so the keyboard's place is not lost.
 */
export function AutoScrollControl({
  running,
  speed,
  onPause,
  onResume,
  onSpeed,
  onOff,
}: {
  running: boolean;
  speed: number;
  onPause(): void;
  onResume(): void;
  onSpeed(step: number): void;
  onOff(): void;
}) {
  const slowest = speed <= 1;
  const fastest = speed >= SPEED_STEPS;
  return (
    // biome-ignore lint/a11y/useSemanticElements: a group of buttons, not a form's fieldset
    <div className={`reader-auto ${running ? 'is-running' : ''}`} role="group" aria-label="自动滚动">
      <button
        type="button"
        className="reader-auto-button reader-auto-slower"
        aria-label="减慢滚动速度"
        aria-disabled={slowest}
        onClick={() => !slowest && onSpeed(speed - 1)}
      />
      <button
        type="button"
        className={`reader-auto-button reader-auto-toggle ${running ? 'is-pause' : 'is-play'}`}
        aria-label={running ? '暂停自动滚动' : '继续自动滚动'}
        onClick={running ? onPause : onResume}
      />
      <output className="reader-auto-speed" aria-live="polite" aria-label={`滚动速度 ${speed}档`}>
        {speed}档
      </output>
      <button
        type="button"
        className="reader-auto-button reader-auto-faster"
        aria-label="加快滚动速度"
        aria-disabled={fastest}
        onClick={() => !fastest && onSpeed(speed + 1)}
      />
      <button
        type="button"
        className="reader-auto-button reader-auto-off"
        aria-label="关闭自动滚动"
        onClick={onOff}
      />
    </div>
  );
}
