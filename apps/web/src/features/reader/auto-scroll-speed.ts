/** Auto-scroll's speed setting (设置 → 自动滚动): its steps and how a stored value is read. */

/** The speed setting's steps, 1 (slowest) to SPEED_STEPS; the middle one is the default. */
export const SPEED_STEPS = 5;
export const DEFAULT_SPEED = 3;

/** A stored or typed speed as a whole step between 1 and SPEED_STEPS (anything else: the default). */
export function clampSpeed(step: unknown): number {
  if (typeof step !== 'number' || !Number.isFinite(step)) return DEFAULT_SPEED;
  return Math.min(SPEED_STEPS, Math.max(1, Math.round(step)));
}
