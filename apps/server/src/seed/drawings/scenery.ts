import type { Palette, Rng } from './palette.ts';
import { el, points } from './svg.ts';

export interface Box {
  x: number;
  y: number;
  w: number;
  h: number;
}

export type Backdrop = 'day' | 'night' | 'city' | 'room' | 'tone';
export const BACKDROPS: readonly Backdrop[] = ['day', 'night', 'city', 'room', 'tone'];

/** Gradients and the screentone pattern, defined once per document under the given id prefix. */
export function defs(p: Palette, id: string): string {
  return (
    '<defs>' +
    `<linearGradient id="${id}day" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${p.skyDeep}"/><stop offset="1" stop-color="${p.sky}"/></linearGradient>` +
    `<linearGradient id="${id}night" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#0d1030"/><stop offset="1" stop-color="${p.dark}"/></linearGradient>` +
    `<pattern id="${id}dots" width="10" height="10" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">` +
    `<rect width="10" height="10" fill="${p.accentSoft}"/><circle cx="5" cy="5" r="2.2" fill="${p.tone}"/></pattern>` +
    '</defs>'
  );
}

/** Fills a panel's bounding box with a background scene. */
export function backdrop(rng: Rng, p: Palette, id: string, b: Box, kind: Backdrop): string {
  const { x, y, w, h } = b;
  const full = (fill: string) => el('rect', { x, y, width: w, height: h, fill });
  switch (kind) {
    case 'day':
      return (
        full(`url(#${id}day)`) +
        sun(x + w * rng.range(0.15, 0.85), y + h * 0.22, Math.min(w, h) * 0.1) +
        clouds(rng, b) +
        hills(rng, p, b)
      );
    case 'night':
      return (
        full(`url(#${id}night)`) +
        stars(rng, b) +
        el('circle', { cx: x + w * 0.8, cy: y + h * 0.2, r: Math.min(w, h) * 0.08, fill: '#fff6c8' }) +
        skyline(rng, '#05060f', b, 0.35)
      );
    case 'city':
      return full(`url(#${id}day)`) + skyline(rng, p.tone, b, 0.6) + skyline(rng, p.dark, b, 0.4);
    case 'room':
      return room(p, b);
    case 'tone':
      return full(`url(#${id}dots)`);
  }
}

function sun(cx: number, cy: number, r: number): string {
  return el('circle', {
    cx: cx.toFixed(1),
    cy: cy.toFixed(1),
    r: r.toFixed(1),
    fill: '#fff3b0',
    opacity: 0.9,
  });
}

function clouds(rng: Rng, b: Box): string {
  let out = '';
  for (let i = rng.int(1, 3); i > 0; i--) {
    const cx = b.x + b.w * rng.next();
    const cy = b.y + b.h * rng.range(0.1, 0.4);
    const r = Math.min(b.w, b.h) * rng.range(0.05, 0.09);
    for (const [dx, dy, k] of [
      [-1.2, 0.2, 0.8],
      [0, 0, 1.1],
      [1.2, 0.2, 0.8],
      [0.5, 0.45, 0.9],
      [-0.5, 0.45, 0.9],
    ] as const) {
      out += el('circle', {
        cx: (cx + dx * r).toFixed(1),
        cy: (cy + dy * r).toFixed(1),
        r: (k * r).toFixed(1),
      });
    }
  }
  return `<g fill="#fff" opacity="0.9">${out}</g>`;
}

function hills(rng: Rng, p: Palette, b: Box): string {
  const base = b.y + b.h;
  const pts: Array<[number, number]> = [[b.x, base]];
  const steps = 8;
  for (let i = 0; i <= steps; i++) pts.push([b.x + (b.w * i) / steps, base - b.h * rng.range(0.12, 0.32)]);
  pts.push([b.x + b.w, base]);
  return el('polygon', { points: points(pts), fill: p.accentSoft, stroke: '#141414', 'stroke-width': 3 });
}

function stars(rng: Rng, b: Box): string {
  let out = '';
  for (let i = 0; i < 30; i++) {
    out += el('circle', {
      cx: (b.x + b.w * rng.next()).toFixed(1),
      cy: (b.y + b.h * rng.range(0, 0.6)).toFixed(1),
      r: rng.range(0.8, 2.4).toFixed(1),
    });
  }
  return `<g fill="#fff">${out}</g>`;
}

function skyline(rng: Rng, fill: string, b: Box, tall: number): string {
  const base = b.y + b.h;
  const pts: Array<[number, number]> = [[b.x, base]];
  let x = b.x;
  while (x < b.x + b.w) {
    const top = base - b.h * tall * rng.range(0.3, 1);
    const wBlock = b.w * rng.range(0.06, 0.14);
    pts.push([x, top], [x + wBlock, top]);
    x += wBlock;
  }
  pts.push([x, base]);
  return el('polygon', { points: points(pts), fill });
}

function room(p: Palette, b: Box): string {
  const { x, y, w, h } = b;
  const floor = y + h * 0.72;
  const win = { x: x + w * 0.58, y: y + h * 0.12, w: w * 0.3, h: h * 0.4 };
  return (
    el('rect', { x, y, width: w, height: h, fill: p.sky }) +
    el('rect', { x, y: floor, width: w, height: h - (floor - y), fill: p.tone }) +
    el('line', { x1: x, y1: floor, x2: x + w, y2: floor, stroke: '#141414', 'stroke-width': 3 }) +
    el('rect', {
      x: win.x,
      y: win.y,
      width: win.w,
      height: win.h,
      fill: '#fdfdf6',
      stroke: '#141414',
      'stroke-width': 4,
    }) +
    el('path', {
      d: `M${win.x + win.w / 2},${win.y} V${win.y + win.h} M${win.x},${win.y + win.h / 2} H${win.x + win.w}`,
      stroke: '#141414',
      'stroke-width': 3,
    })
  );
}
