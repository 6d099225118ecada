import sharp from 'sharp';

export const FONT = 'Noto Sans CJK SC, sans-serif';

/** Titles come from the database: everything placed in SVG text or attributes goes through here. */
export function escapeXml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

type Attrs = Record<string, string | number | undefined>;

function attrs(a: Attrs): string {
  let out = '';
  for (const [k, v] of Object.entries(a)) {
    if (v !== undefined) out += ` ${k}="${escapeXml(String(v))}"`;
  }
  return out;
}

/** One SVG element; `inner` is already SVG markup (use `text()` for words). */
export function el(name: string, a: Attrs, inner?: string): string {
  return inner === undefined ? `<${name}${attrs(a)}/>` : `<${name}${attrs(a)}>${inner}</${name}>`;
}

export interface TextStyle {
  size: number;
  fill?: string;
  weight?: 'normal' | 'bold';
  anchor?: 'start' | 'middle' | 'end';
  stroke?: string;
  strokeWidth?: number;
  spacing?: number;
}

export function text(x: number, y: number, words: string, s: TextStyle): string {
  return el(
    'text',
    {
      x,
      y,
      'font-family': FONT,
      'font-size': s.size,
      'font-weight': s.weight ?? 'normal',
      'text-anchor': s.anchor ?? 'start',
      'letter-spacing': s.spacing,
      fill: s.fill ?? '#111',
      stroke: s.stroke,
      'stroke-width': s.strokeWidth,
      'stroke-linejoin': s.stroke ? 'round' : undefined,
      'paint-order': s.stroke ? 'stroke' : undefined,
    },
    escapeXml(words),
  );
}

/** Splits Chinese text into lines of at most `perLine` characters (no word boundaries needed). */
export function wrap(words: string, perLine: number): string[] {
  const chars = [...words];
  const lines: string[] = [];
  for (let i = 0; i < chars.length; i += perLine) lines.push(chars.slice(i, i + perLine).join(''));
  return lines;
}

export function svgDoc(width: number, height: number, body: string, viewBox?: string): string {
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" ` +
    `viewBox="${viewBox ?? `0 0 ${width} ${height}`}">${body}</svg>`
  );
}

/** Rasterises with librsvg (inside sharp). Low zlib effort: the host re-encodes to WebP anyway. */
export function renderPng(svg: string): Promise<Buffer> {
  return sharp(Buffer.from(svg)).png({ compressionLevel: 2, adaptiveFiltering: false }).toBuffer();
}

export const points = (pts: Array<[number, number]>): string =>
  pts.map(([x, y]) => `${x.toFixed(1)},${y.toFixed(1)}`).join(' ');
