import path from 'node:path';

/** docs/api.md section 5: the only widths the image host renders. */
export const IMAGE_WIDTHS = [180, 200, 500, 1000] as const;
export const WIDTH_MESSAGE = '图片宽度只能是 180、200、500 或 1000';
export const PATH_MESSAGE = '图片路径不合法';

/** A grant in front of a page path (page-grant.ts); checked by the image host, not here. */
export interface Grant {
  expiry: number;
  mac: string;
}
export type ImageRequest = { path: string; width: number; grant?: Grant };
export type ParsedImageUrl = ImageRequest | { error: string } | null;

const IMAGE_URL = /^\/(.+)_(\d{1,6})_0\.img$/;
const WIDTHS = new Map<string, number>(IMAGE_WIDTHS.map((w) => [String(w), w]));
/** Segments of letters, digits, `_`, `.` and `-`, none empty, none hidden (`.`, `..`, `.env`). */
const SAFE_PATH = /^[A-Za-z0-9_-][A-Za-z0-9_.-]*(?:\/[A-Za-z0-9_-][A-Za-z0-9_.-]*)*$/;
const IMAGE_EXT = /\.(?:png|jpe?g|webp|gif|avif)$/i;
const MAX_PATH = 512;
const GRANTED = /^g\/(\d{1,12})\/([A-Za-z0-9_-]{1,64})\/(.+)$/s;

/**
 * Reads `/{path}_{width}_0.img`. Null when the URL is not an image URL at all (another route may want it);
 * `{ error }` when it is one but the width or the path is not allowed. The path is percent-decoded once,
 * so `%2e%2e` and `..%2f` decode to dots and slashes that the checks below refuse, and a double-encoded
 * `%252e` decodes to `%2e`, whose `%` is refused.
 */
export function parseImageUrl(url: string, imageRoot: string): ParsedImageUrl {
  const q = url.indexOf('?');
  const m = IMAGE_URL.exec(q === -1 ? url : url.slice(0, q));
  if (!m) return null;
  const width = WIDTHS.get(m[2] ?? '');
  if (width === undefined) return { error: WIDTH_MESSAGE };
  let decoded: string;
  try {
    decoded = decodeURIComponent(m[1] ?? '');
  } catch {
    return { error: PATH_MESSAGE };
  }
  const granted = GRANTED.exec(decoded);
  if (granted) decoded = granted[3] ?? '';
  if (decoded.length > MAX_PATH || !SAFE_PATH.test(decoded) || !IMAGE_EXT.test(decoded)) {
    return { error: PATH_MESSAGE };
  }
  // Belt and braces: the pattern already rules out `..`, but the resolved file must sit under the root.
  const root = path.resolve(imageRoot);
  if (!path.resolve(root, decoded).startsWith(root + path.sep)) return { error: PATH_MESSAGE };
  if (!granted) return { path: decoded, width };
  return { path: decoded, width, grant: { expiry: Number(granted[1]), mac: granted[2] ?? '' } };
}

export const isCoverPath = (p: string): boolean => p.startsWith('covers/');
/** Page images: those of priced chapters are served only with a grant. */
export const isPagePath = (p: string): boolean => p.startsWith('pages/');
