import type { Palette, Rng } from './palette.ts';
import { el, points, text, wrap } from './svg.ts';

const INK = '#141414';

/** At most 7 characters a line, lines of nearly equal length. */
function balanced(words: string): string[] {
  const n = [...words].length;
  return wrap(words, Math.ceil(n / Math.ceil(n / 7)));
}

/** Speech bubble: an ellipse around the words, with a tail pointing at (tx, ty). */
export function bubble(cx: number, cy: number, words: string, tx: number, ty: number, size = 26): string {
  const lines = balanced(words);
  const longest = Math.max(...lines.map((l) => [...l].length));
  const rx = (longest * size) / 2 + size * 1.1;
  const ry = (lines.length * size * 1.3) / 2 + size * 0.8;
  const ang = Math.atan2(ty - cy, tx - cx);
  const base = (d: number): [number, number] => [
    cx + Math.cos(ang + d) * rx * 0.8,
    cy + Math.sin(ang + d) * ry * 0.8,
  ];
  const tail = points([base(-0.28), [tx, ty], base(0.28)]);
  const body = el('ellipse', {
    cx,
    cy,
    rx: rx.toFixed(1),
    ry: ry.toFixed(1),
    fill: '#fff',
    stroke: INK,
    'stroke-width': 3,
  });
  const words2 = lines
    .map((l, i) =>
      text(cx, cy + (i - (lines.length - 1) / 2) * size * 1.3 + size * 0.36, l, {
        size,
        anchor: 'middle',
        weight: 'bold',
        fill: INK,
      }),
    )
    .join('');
  return (
    el('polygon', {
      points: tail,
      fill: '#fff',
      stroke: INK,
      'stroke-width': 6,
      'stroke-linejoin': 'round',
    }) +
    body +
    el('polygon', { points: tail, fill: '#fff' }) +
    words2
  );
}

export const bubbleSize = (words: string, size = 26) => {
  const lines = balanced(words);
  const longest = Math.max(...lines.map((l) => [...l].length));
  return { rx: (longest * size) / 2 + size * 1.1, ry: (lines.length * size * 1.3) / 2 + size * 0.8 };
};

/** Radial speed lines converging on (cx, cy), covering a box of half-diagonal `reach`. */
export function speedLines(
  rng: Rng,
  cx: number,
  cy: number,
  inner: number,
  reach: number,
  color = INK,
): string {
  const out: string[] = [];
  for (let a = 0; a < Math.PI * 2; a += rng.range(0.035, 0.09)) {
    const r0 = inner * rng.range(0.9, 1.5);
    const spread = rng.range(0.006, 0.02);
    out.push(
      points([
        [cx + Math.cos(a) * r0, cy + Math.sin(a) * r0],
        [cx + Math.cos(a - spread) * reach, cy + Math.sin(a - spread) * reach],
        [cx + Math.cos(a + spread) * reach, cy + Math.sin(a + spread) * reach],
      ]),
    );
  }
  return `<g fill="${color}">${out.map((p) => `<polygon points="${p}"/>`).join('')}</g>`;
}

/** Spiky burst with a sound effect written across it. */
export function burst(rng: Rng, p: Palette, cx: number, cy: number, r: number, sfx: string): string {
  const pts: Array<[number, number]> = [];
  const n = 18;
  for (let i = 0; i < n * 2; i++) {
    const a = (i / (n * 2)) * Math.PI * 2;
    const rr = i % 2 === 0 ? r * rng.range(0.95, 1.2) : r * 0.62;
    pts.push([cx + Math.cos(a) * rr, cy + Math.sin(a) * rr * 0.8]);
  }
  const size = Math.min(r * 0.7, (r * 1.5) / Math.max(1, [...sfx].length));
  return (
    el('polygon', {
      points: points(pts),
      fill: '#fff7b0',
      stroke: INK,
      'stroke-width': 4,
      'stroke-linejoin': 'round',
    }) +
    text(cx, cy + size * 0.36, sfx, {
      size,
      anchor: 'middle',
      weight: 'bold',
      fill: p.accent,
      stroke: INK,
      strokeWidth: size * 0.12,
    })
  );
}

/** Narration box in the corner of a panel. */
export function caption(x: number, y: number, words: string, size = 22): string {
  const w = [...words].length * size + size * 1.2;
  return (
    el('rect', { x, y, width: w, height: size * 1.9, fill: '#fff8dc', stroke: INK, 'stroke-width': 3 }) +
    text(x + size * 0.6, y + size * 1.3, words, { size, fill: INK })
  );
}
