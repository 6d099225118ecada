import { face, MOODS } from './face.ts';
import { speedLines } from './figures.ts';
import type { Character, Palette, Rng } from './palette.ts';
import { type Backdrop, backdrop, defs } from './scenery.ts';
import { el, svgDoc, text, wrap } from './svg.ts';

const ID = 'c';
const SCENES: readonly Backdrop[] = ['day', 'city', 'night', 'tone'];
const TAGLINES = ['连载中 · 每周更新', '独家首发', '人气新作', '热血连载', '甜宠日常', '悬疑巨制'] as const;

function lead(p: Palette): Character {
  return p.cast[0] ?? { hair: '#333', clothes: p.accent, skin: '#fde3cf', longHair: false, spiky: false };
}

function shade(id: string, y0: number): string {
  return (
    `<defs><linearGradient id="${id}" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#000" stop-opacity="0"/>` +
    `<stop offset="1" stop-color="#000" stop-opacity="0.75"/></linearGradient></defs>` +
    el('rect', { x: 0, y: y0, width: '100%', height: '100%', fill: `url(#${id})` })
  );
}

function badge(x: number, y: number, words: string, p: Palette, size = 24): string {
  const w = [...words].length * size + size;
  return (
    el('rect', {
      x,
      y,
      width: w,
      height: size * 1.7,
      rx: size * 0.35,
      fill: p.accent,
      stroke: '#141414',
      'stroke-width': 3,
    }) + text(x + w / 2, y + size * 1.2, words, { size, weight: 'bold', anchor: 'middle', fill: '#fff' })
  );
}

function titleLines(
  title: string,
  x: number,
  yBottom: number,
  maxWidth: number,
  anchor: 'start' | 'middle',
): string {
  const perLine = [...title].length > 9 ? Math.ceil([...title].length / 2) : 9;
  const lines = wrap(title, perLine);
  const longest = Math.max(1, ...lines.map((l) => [...l].length));
  const size = Math.min(76, Math.floor(maxWidth / longest));
  return lines
    .map((l, i) =>
      text(x, yBottom - (lines.length - 1 - i) * size * 1.15, l, {
        size,
        weight: 'bold',
        anchor,
        fill: '#fff',
        stroke: '#141414',
        strokeWidth: Math.max(4, size * 0.13),
      }),
    )
    .join('');
}

/** 600x800 poster: the lead character large, the title across the bottom. No title: a shared placeholder. */
export function verticalCoverSvg(rng: Rng, p: Palette, title: string | undefined): string {
  const W = 600;
  const H = 800;
  const box = { x: 0, y: 0, w: W, h: H };
  let body = defs(p, ID) + backdrop(rng, p, ID, box, rng.pick(SCENES));
  body += `<g opacity="0.55">${speedLines(rng, W / 2, 400, 230, 900, '#fff')}</g>`;
  body += face(p, lead(p), W / 2 + rng.range(-40, 40), 430, 150, rng.pick(MOODS));
  body += shade(`${ID}s`, 520);
  body += badge(24, 24, title ? '阅漫独家' : '阅漫', p);
  if (title) body += titleLines(title, W / 2, 710, W - 60, 'middle');
  body += text(W / 2, 768, rng.pick(TAGLINES), { size: 24, anchor: 'middle', fill: '#f2f2f2', spacing: 4 });
  return svgDoc(W, H, body);
}

/** 800x450 banner: title on the left, character on the right. */
export function horizontalCoverSvg(rng: Rng, p: Palette, title: string | undefined): string {
  const W = 800;
  const H = 450;
  let body = defs(p, ID) + backdrop(rng, p, ID, { x: 0, y: 0, w: W, h: H }, rng.pick(SCENES));
  body += `<g opacity="0.5">${speedLines(rng, 600, 230, 150, 800, '#fff')}</g>`;
  body += face(p, lead(p), 600, 250, 115, rng.pick(MOODS));
  body +=
    `<defs><linearGradient id="${ID}l" x1="0" y1="0" x2="1" y2="0"><stop offset="0" stop-color="#000" stop-opacity="0.7"/>` +
    `<stop offset="1" stop-color="#000" stop-opacity="0"/></linearGradient></defs>` +
    el('rect', { x: 0, y: 0, width: 520, height: H, fill: `url(#${ID}l)` });
  body += badge(28, 28, title ? '阅漫独家' : '阅漫', p, 22);
  if (title) body += titleLines(title, 36, 300, 400, 'start');
  body += text(36, 360, rng.pick(TAGLINES), { size: 24, fill: '#f2f2f2', spacing: 3 });
  return svgDoc(W, H, body);
}

/** 320x180 chapter thumbnail: a small scene with the chapter number. */
export function chapterThumbSvg(rng: Rng, p: Palette, chapter: number | undefined): string {
  const W = 320;
  const H = 180;
  let body = defs(p, ID) + backdrop(rng, p, ID, { x: 0, y: 0, w: W, h: H }, rng.pick(SCENES));
  body += face(p, rng.pick(p.cast), W * rng.range(0.35, 0.65), 110, 48, rng.pick(MOODS));
  body += el('rect', {
    x: 1.5,
    y: 1.5,
    width: W - 3,
    height: H - 3,
    fill: 'none',
    stroke: '#141414',
    'stroke-width': 3,
  });
  if (chapter !== undefined) body += badge(10, 130, `第${chapter}话`, p, 22);
  return svgDoc(W, H, body);
}
