import { speedLines } from './figures.ts';
import { type Palette, paletteFor, Rng } from './palette.ts';
import { el, svgDoc, text } from './svg.ts';

/**
 * The demo carousel's words, one per ad of demoShop in its order (a book, the recharge centre, a book, the 大咖 list,
 * the external event page, a book, the categories): each says what its ad opens and promises only what the demo
 * gives (the first three chapters of every demo book are free; the packs' bonuses and the first-recharge offer of
 * 100 coins are demoShop's).
 */
export const AD_WORDS = [
  { headline: '人气连载 前三话免费', sub: '精选好书 · 点开就能看', cta: '去看看' },
  { headline: '新用户首充送 100 阅币', sub: '充50元加赠800阅币', cta: '去充值' },
  { headline: '热门新作 抢先看', sub: '人气作者 · 精彩连载', cta: '去看看' },
  { headline: '大咖力作 一网打尽', sub: '口碑大作 · 精选推荐', cta: '去看看' },
  { headline: '阅漫秋季活动', sub: '活动详情请见活动页', cta: '了解详情' },
  { headline: '人气排行 热门推荐', sub: '大家都在看', cta: '去看看' },
  { headline: '分类找漫画', sub: '热血 · 恋爱 · 悬疑 · 随心挑选', cta: '去分类' },
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
  const ad = AD_WORDS[(n - 1 + AD_WORDS.length * 1000) % AD_WORDS.length] ?? AD_WORDS[0];
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
