import type { Rng } from './palette.ts';
import type { Box } from './scenery.ts';

export const MARGIN = 30;
export const GUTTER = 22;

/** `box` bounds the panel; `inner` is the part clear of slanted edges, where words and faces go. */
export type Panel = { poly: Array<[number, number]>; box: Box; inner: Box };

/** Rows of one or two panels; a two-panel row has a slanted gutter, as in printed manga. */
export function layout(rng: Rng, width: number, top: number, bottom: number): Panel[] {
  const panels: Panel[] = [];
  const left = MARGIN;
  const right = width - MARGIN;
  let y = top;
  while (y < bottom - 1) {
    const rest = bottom - y;
    let h = rest < 720 ? rest : rng.int(3, 5) * 100 + rng.int(0, 3) * 20;
    if (rest - h - GUTTER < 300 && h !== rest) h = Math.round((rest - GUTTER) / 2);
    const y1 = y + h;
    if (rng.chance(0.45) && h >= 260) {
      const xt = left + (right - left) * rng.range(0.38, 0.62);
      const xb = xt + rng.range(-50, 50);
      const g = GUTTER / 2;
      panels.push(
        panel([
          [left, y],
          [xt - g, y],
          [xb - g, y1],
          [left, y1],
        ]),
      );
      panels.push(
        panel([
          [xt + g, y],
          [right, y],
          [right, y1],
          [xb + g, y1],
        ]),
      );
    } else {
      panels.push(
        panel([
          [left, y],
          [right, y],
          [right, y1],
          [left, y1],
        ]),
      );
    }
    y = y1 + GUTTER;
  }
  return panels;
}

export function panel(poly: Array<[number, number]>): Panel {
  const xs = poly.map((p) => p[0]);
  const ys = poly.map((p) => p[1]);
  const x = Math.min(...xs);
  const y = Math.min(...ys);
  const [tl, tr, br, bl] = poly as [[number, number], [number, number], [number, number], [number, number]];
  const ix = Math.max(tl[0], bl[0]);
  const box = { x, y, w: Math.max(...xs) - x, h: Math.max(...ys) - y };
  return { poly, box, inner: { x: ix, y, w: Math.min(tr[0], br[0]) - ix, h: box.h } };
}
