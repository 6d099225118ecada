/**
 * Auto-scroll's pure rules of motion: how fast a step scrolls, how far one frame moves, and where the chapter ends.
 * Loaded with the scrolling itself (auto-scroll-run.ts); the speed steps the settings keep are auto-scroll-speed.ts.
 */
import { clampSpeed, DEFAULT_SPEED } from './auto-scroll-speed.ts';

/** CSS pixels per second at the middle step; each step up is half as fast again, each step down two thirds. */
const BASE_PX_PER_SECOND = 60;
const STEP_FACTOR = 1.5;

/** A frame longer than this (a hidden tab, a long task) moves as far as this much time, not in one jump. */
export const MAX_FRAME_MS = 100;

/** The scrolling speed of a step, in CSS pixels per second: 27, 40, 60, 90, 135 for steps 1 to 5. */
export function pxPerSecond(step: number): number {
  return Math.round(BASE_PX_PER_SECOND * STEP_FACTOR ** (clampSpeed(step) - DEFAULT_SPEED));
}

/**
 * One frame of auto-scroll: how far to scroll now, and the remainder carried to the next frame. The distance is
 * a whole number of `quantum` (one device pixel, 1 / devicePixelRatio CSS pixels), so a slow speed still moves
 * smoothly and no fraction is lost to the browser's rounding of the scroll position.
 */
export function advance(
  carry: number,
  speedPxPerSecond: number,
  frameMs: number,
  quantum = 1,
): { step: number; carry: number } {
  const ms = Math.min(MAX_FRAME_MS, Math.max(0, frameMs));
  const q = quantum > 0 ? quantum : 1;
  const total = carry + (speedPxPerSecond * ms) / 1000;
  const units = Math.floor(total / q + 1e-9);
  const step = units * q;
  return { step, carry: Math.max(0, total - step) };
}

/** The chapter's end: the bottom of the document is on screen (within a pixel). */
export function atEnd(scrollY: number, viewportHeight: number, documentHeight: number): boolean {
  return scrollY + viewportHeight >= documentHeight - 1;
}
