import { face, MOODS } from './face.ts';
import { bubble, bubbleSize, burst, caption, speedLines } from './figures.ts';
import type { Character, Palette, Rng } from './palette.ts';
import { BACKDROPS, type Backdrop, type Box, backdrop } from './scenery.ts';
import { el, text } from './svg.ts';
import { LINES, NARRATION, SFX } from './words.ts';

export const ID = 'p';
const SCENES: readonly Backdrop[] = ['day', 'night', 'city'];
const NOBODY: Character = { hair: '#333', clothes: '#888', skin: '#fde3cf', longHair: false, spiky: false };

/** One panel's picture: an effect, a scene with narration, or one or two characters talking. */
export function art(rng: Rng, p: Palette, b: Box, inner: Box): string {
  const small = inner.w < 420;
  const size = small ? 21 : 26;
  const roll = rng.next();
  if (roll < 0.2) {
    const cx = inner.x + inner.w / 2;
    const cy = b.y + b.h / 2;
    const r = Math.min(inner.w, b.h) * 0.3;
    const lines = speedLines(rng, cx, cy, r, Math.hypot(b.w, b.h));
    return (
      el('rect', { x: b.x, y: b.y, width: b.w, height: b.h, fill: '#fff' }) +
      lines +
      burst(rng, p, cx, cy, r, rng.pick(SFX))
    );
  }
  if (roll < 0.36) {
    const scene = backdrop(rng, p, ID, b, rng.pick(SCENES));
    return scene + caption(inner.x + 14, b.y + 14, rng.pick(NARRATION), small ? 18 : 22);
  }
  let out = backdrop(rng, p, ID, b, rng.pick(BACKDROPS));
  const duo = !small && roll > 0.8;
  const speakers = duo ? [0.27, 0.73] : [rng.range(0.3, 0.7)];
  const cast = duo ? [p.cast[0], rng.pick(p.cast.length > 1 ? p.cast.slice(1) : p.cast)] : [rng.pick(p.cast)];
  let bubbles = '';
  const said = new Set<string>();
  for (const [i, at] of speakers.entries()) {
    let words = rng.pick(LINES);
    while (said.has(words)) words = rng.pick(LINES);
    said.add(words);
    const { rx, ry } = bubbleSize(words, size);
    const r = Math.min(inner.w * (duo ? 0.14 : 0.28), b.h * 0.24);
    const fx = inner.x + inner.w * at;
    // Each speaker's bubble stays over its own half of a two-shot.
    const lo = duo ? inner.x + (i * inner.w) / 2 : inner.x;
    const hi = duo ? lo + inner.w / 2 : inner.x + inner.w;
    const clampX = (x: number) => Math.min(Math.max(x, lo + rx + 12), hi - rx - 12);
    let bx = clampX(fx + (duo ? 0 : rng.range(-0.15, 0.15) * inner.w));
    let by = b.y + ry + 14 + (duo ? i * ry * 0.5 : 0);
    const stacked = by + ry + 1.4 * r + 16;
    let fy = Math.max(stacked, b.y + b.h - 2.8 * r);
    if (stacked > b.y + b.h * 0.62) {
      // Too short to stack: the face sits low and the bubble beside it, on the roomier side.
      fy = b.y + b.h * 0.56;
      const side = fx - inner.x > inner.x + inner.w - fx ? -1 : 1;
      bx = clampX(fx + side * (1.15 * r + rx));
      by = Math.max(b.y + ry + 14, fy - 1.2 * r);
    } else {
      by = Math.max(by, fy - 1.4 * r - 24 - ry);
    }
    out += face(p, cast[i] ?? p.cast[0] ?? NOBODY, fx, fy, r, rng.pick(MOODS));
    bubbles += bubble(bx, by, words, fx + Math.sign(bx - fx) * 0.5 * r, fy - 0.9 * r, size);
  }
  return out + bubbles;
}

export function titleCard(rng: Rng, p: Palette, b: Box, title: string, chapter: number): string {
  const size = Math.min(64, (b.w * 0.85) / Math.max(1, [...title].length));
  const cy = b.y + b.h / 2;
  return (
    backdrop(rng, p, ID, b, 'tone') +
    speedLines(rng, b.x + b.w / 2, cy, b.h * 0.45, Math.hypot(b.w, b.h), p.accentSoft) +
    text(b.x + b.w / 2, cy - 6, title, {
      size,
      weight: 'bold',
      anchor: 'middle',
      fill: '#fff',
      stroke: '#141414',
      strokeWidth: size * 0.14,
    }) +
    el('rect', {
      x: b.x + b.w / 2 - 80,
      y: cy + 26,
      width: 160,
      height: 46,
      rx: 23,
      fill: p.accent,
      stroke: '#141414',
      'stroke-width': 3,
    }) +
    text(b.x + b.w / 2, cy + 59, `第${chapter}话`, {
      size: 26,
      weight: 'bold',
      anchor: 'middle',
      fill: '#fff',
    })
  );
}
