import { speedLines } from './figures.ts';
import { type Palette, paletteFor, Rng } from './palette.ts';
import { el, svgDoc, text } from './svg.ts';

const ADS = [
  { headline: '新用户首充送 100 阅币', sub: '海量独家漫画 · 限时福利', cta: '立即领取' },
  { headline: '开通 VIP 全站畅读', sub: '每日更新 · 无广告阅读', cta: '马上开通' },
  { headline: '暑期狂欢 充值 8 折', sub: '活动仅限本周 · 先到先得', cta: '去充值' },
  { headline: '签到七天 免费看新章', sub: '连续签到 · 阅币翻倍', cta: '去签到' },
  { headline: '热门新作 抢先看', sub: '人气作者 · 独家首发', cta: '去看看' },
] as const;

const COINS = [
  [600, 95, 46],
  [695, 70, 32],
  [665, 195, 52],
  [560, 225, 30],
  [715, 255, 24],
] as const;

function coin(cx: number, cy: number, r: number): string {
  return (
    el('circle', { cx, cy, r, fill: '#ffd34d', stroke: '#141414', 'stroke-width': 3 }) +
    el('circle', { cx, cy, r: r * 0.72, fill: 'none', stroke: '#e0a800', 'stroke-width': 3 }) +
    text(cx, cy + r * 0.36, '币', { size: r, weight: 'bold', anchor: 'middle', fill: '#b87800' })
  );
}

function palette(n: number): Palette {
  return paletteFor(n * 3 + 101);
}

/** 750x300 banner with a headline, a line of detail and a call-to-action button. */
export function adSvg(n: number): string {
  const W = 750;
  const H = 300;
  const rng = new Rng(9001, n);
  const p = palette(n);
  const ad = ADS[(n - 1 + ADS.length * 1000) % ADS.length] ?? ADS[0];
  const headSize = Math.min(54, Math.floor(470 / [...ad.headline].length));
  let body =
    `<defs><linearGradient id="a" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${p.accent}"/>` +
    `<stop offset="1" stop-color="${p.skyDeep}"/></linearGradient></defs>` +
    el('rect', { width: W, height: H, fill: 'url(#a)' });
  body += `<g opacity="0.25">${speedLines(rng, 600, 150, 90, 900, '#fff')}</g>`;
  for (const [x, y, r] of COINS) body += coin(x + rng.range(-10, 10), y + rng.range(-10, 10), r);
  body += el('rect', { x: 24, y: 24, width: 72, height: 34, rx: 6, fill: '#fff', opacity: 0.9 });
  body += text(60, 48, '广告', { size: 20, anchor: 'middle', fill: p.dark, weight: 'bold' });
  body += text(40, 138, ad.headline, {
    size: headSize,
    weight: 'bold',
    fill: '#fff',
    stroke: p.dark,
    strokeWidth: 6,
  });
  body += text(42, 190, ad.sub, { size: 26, fill: '#fff' });
  body += el('rect', {
    x: 40,
    y: 214,
    width: 200,
    height: 58,
    rx: 29,
    fill: '#ffd34d',
    stroke: '#141414',
    'stroke-width': 3,
  });
  body += text(140, 253, `${ad.cta} ›`, { size: 28, weight: 'bold', anchor: 'middle', fill: '#141414' });
  return svgDoc(W, H, body);
}
