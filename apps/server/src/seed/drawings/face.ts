import type { Character, Palette } from './palette.ts';
import { el } from './svg.ts';

export type Mood = 'calm' | 'happy' | 'angry' | 'surprised';
export const MOODS: readonly Mood[] = ['calm', 'happy', 'angry', 'surprised'];
const INK = '#141414';

/** A chibi-style bust: shoulders, head, hair with bangs (spiky or rounded), big eyes with highlights. */
export function face(p: Palette, ch: Character, cx: number, cy: number, r: number, mood: Mood): string {
  const w = Math.max(2, r * 0.045);
  const f = (n: number) => n.toFixed(1);
  const X = (k: number) => f(cx + k * r);
  const Y = (k: number) => f(cy + k * r);
  const line = { stroke: INK, 'stroke-width': f(w), 'stroke-linejoin': 'round' };
  const back = ch.longHair
    ? `M${X(-1.14)},${Y(1.5)} L${X(-1.14)},${Y(-0.1)} A${f(1.14 * r)},${f(1.2 * r)} 0 0 1 ${X(1.14)},${Y(-0.1)} L${X(1.14)},${Y(1.5)} Z`
    : `M${X(-1.12)},${Y(0.3)} L${X(-1.12)},${Y(-0.1)} A${f(1.12 * r)},${f(1.2 * r)} 0 0 1 ${X(1.12)},${Y(-0.1)} L${X(1.12)},${Y(0.3)} Z`;
  const hairBack = el('path', { d: back, fill: ch.hair, ...line });
  const body =
    el('path', {
      d: `M${X(-1.8)},${Y(3)} Q${X(-1.6)},${Y(1.25)} ${X(-0.45)},${Y(1.05)} L${X(0.45)},${Y(1.05)} Q${X(1.6)},${Y(1.25)} ${X(1.8)},${Y(3)} Z`,
      fill: ch.clothes,
      ...line,
    }) +
    el('path', {
      d: `M${X(-0.45)},${Y(1.05)} L${X(0)},${Y(1.6)} L${X(0.45)},${Y(1.05)}`,
      fill: '#fff',
      ...line,
    });
  const neck = el('rect', { x: X(-0.28), y: Y(0.7), width: f(0.56 * r), height: f(0.5 * r), fill: ch.skin });
  const head = el('ellipse', { cx: f(cx), cy: f(cy), rx: f(r), ry: f(1.06 * r), fill: ch.skin, ...line });
  let d = `M${X(1.12)},${Y(0.25)}`;
  for (let i = 0; i <= 8; i++) {
    const x = 1.05 - (i * 2.1) / 8;
    if (ch.spiky) d += ` L${X(x)},${Y(i % 2 === 0 ? -0.42 : -0.1)}`;
    else if (i % 2 === 0) d += ` L${X(x)},${Y(-0.38)}`;
    else d += ` Q${X(x)},${Y(-0.02)} ${X(x - 0.2625)},${Y(-0.38)}`;
  }
  d += ` L${X(-1.12)},${Y(0.25)} C${X(-1.25)},${Y(-1.05)} ${X(-0.6)},${Y(-1.42)} ${X(0)},${Y(-1.38)}`;
  d += ` C${X(0.6)},${Y(-1.42)} ${X(1.25)},${Y(-1.05)} ${X(1.12)},${Y(0.25)} Z`;
  const hair = el('path', { d, fill: ch.hair, ...line });
  const shine = el('path', {
    d: `M${X(-0.55)},${Y(-0.95)} Q${X(-0.2)},${Y(-1.15)} ${X(0.2)},${Y(-1.1)}`,
    stroke: '#fff',
    'stroke-width': f(w * 2),
    opacity: 0.35,
    fill: 'none',
    'stroke-linecap': 'round',
  });
  const eyes = [-1, 1].map((s) => eye(p, cx + s * 0.42 * r, cy + 0.12 * r, r, mood, s, w)).join('');
  const blush = [-1, 1]
    .map((s) =>
      el('ellipse', {
        cx: X(s * 0.62),
        cy: Y(0.42),
        rx: f(0.16 * r),
        ry: f(0.08 * r),
        fill: p.cheek,
        opacity: 0.8,
      }),
    )
    .join('');
  return hairBack + body + neck + head + hair + shine + eyes + blush + mouth(cx, cy + 0.58 * r, r, mood, w);
}

function eye(p: Palette, x: number, y: number, r: number, mood: Mood, side: number, w: number): string {
  const f = (n: number) => n.toFixed(1);
  const brow =
    mood === 'angry'
      ? `M${f(x - side * 0.22 * r)},${f(y - 0.42 * r)} L${f(x + side * 0.2 * r)},${f(y - 0.28 * r)}`
      : `M${f(x - 0.2 * r)},${f(y - 0.36 * r)} Q${f(x)},${f(y - 0.46 * r)} ${f(x + 0.2 * r)},${f(y - 0.36 * r)}`;
  const browEl = el('path', {
    d: brow,
    stroke: INK,
    'stroke-width': f(w * 1.3),
    fill: 'none',
    'stroke-linecap': 'round',
  });
  if (mood === 'happy') {
    const arc = `M${f(x - 0.17 * r)},${f(y + 0.04 * r)} Q${f(x)},${f(y - 0.2 * r)} ${f(x + 0.17 * r)},${f(y + 0.04 * r)}`;
    return (
      browEl +
      el('path', { d: arc, stroke: INK, 'stroke-width': f(w * 1.6), fill: 'none', 'stroke-linecap': 'round' })
    );
  }
  const ry = mood === 'surprised' ? 0.2 : 0.25;
  return (
    browEl +
    el('ellipse', {
      cx: f(x),
      cy: f(y),
      rx: f(0.17 * r),
      ry: f(ry * r),
      fill: '#fff',
      stroke: INK,
      'stroke-width': f(w),
    }) +
    el('ellipse', { cx: f(x), cy: f(y + 0.03 * r), rx: f(0.12 * r), ry: f((ry - 0.06) * r), fill: p.dark }) +
    el('circle', { cx: f(x - 0.05 * r), cy: f(y - 0.06 * r), r: f(0.05 * r), fill: '#fff' })
  );
}

function mouth(x: number, y: number, r: number, mood: Mood, w: number): string {
  const f = (n: number) => n.toFixed(1);
  if (mood === 'surprised')
    return el('ellipse', {
      cx: f(x),
      cy: f(y),
      rx: f(0.09 * r),
      ry: f(0.12 * r),
      fill: '#7a2630',
      stroke: INK,
      'stroke-width': f(w),
    });
  const d =
    mood === 'angry'
      ? `M${f(x - 0.16 * r)},${f(y + 0.04 * r)} Q${f(x)},${f(y - 0.06 * r)} ${f(x + 0.16 * r)},${f(y + 0.04 * r)}`
      : `M${f(x - 0.16 * r)},${f(y - 0.02 * r)} Q${f(x)},${f(y + (mood === 'happy' ? 0.18 : 0.08) * r)} ${f(x + 0.16 * r)},${f(y - 0.02 * r)}`;
  return el('path', {
    d,
    stroke: INK,
    'stroke-width': f(w * 1.2),
    fill: mood === 'happy' ? '#c2414f' : 'none',
    'stroke-linecap': 'round',
  });
}
