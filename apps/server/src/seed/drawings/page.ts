import { GUTTER, layout, MARGIN, type Panel, panel } from './layout.ts';
import type { Palette, Rng } from './palette.ts';
import { art, ID, titleCard } from './panel-art.ts';
import { defs } from './scenery.ts';
import { el, points, svgDoc, text } from './svg.ts';

export interface PageSpec {
  rng: Rng;
  palette: Palette;
  width: number;
  height: number;
  /** Footer line, e.g. "书名 · 第3话 · 第2页". */
  footer: string;
  /** A title card opens the first page of a chapter. */
  titleCard?: { title: string; chapter: number };
}

const TOP = 36;
const BOTTOM = 76;

/** A whole webtoon page as SVG markup, `width` wide. `viewBox` cuts a slice out of it. */
export function pageSvg(spec: PageSpec, viewBox?: { x: number; width: number }): string {
  const { rng, palette: p, width, height } = spec;
  let top = TOP;
  let body = defs(p, ID) + el('rect', { width, height, fill: '#fdfbf6' });
  const clips: string[] = [];
  const frames: string[] = [];
  const addPanel = (pn: Panel, content: string) => {
    const id = `${ID}c${clips.length}`;
    clips.push(`<clipPath id="${id}"><polygon points="${points(pn.poly)}"/></clipPath>`);
    body += `<g clip-path="url(#${id})">${content}</g>`;
    frames.push(
      el('polygon', {
        points: points(pn.poly),
        fill: 'none',
        stroke: '#141414',
        'stroke-width': 5,
        'stroke-linejoin': 'round',
      }),
    );
  };
  if (spec.titleCard) {
    const card = panel([
      [MARGIN, top],
      [width - MARGIN, top],
      [width - MARGIN, top + 300],
      [MARGIN, top + 300],
    ]);
    addPanel(card, titleCard(rng, p, card.box, spec.titleCard.title, spec.titleCard.chapter));
    top += 300 + GUTTER;
  }
  for (const pn of layout(rng, width, top, height - BOTTOM)) addPanel(pn, art(rng, p, pn.box, pn.inner));
  body += frames.join('');
  body += text(width / 2, height - 30, spec.footer, {
    size: 22,
    anchor: 'middle',
    fill: '#6b6b6b',
    spacing: 1,
  });
  const doc = `<defs>${clips.join('')}</defs>${body}`;
  if (!viewBox) return svgDoc(width, height, doc);
  return svgDoc(viewBox.width, height, doc, `${viewBox.x} 0 ${viewBox.width} ${height}`);
}
