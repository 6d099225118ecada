/** A positive whole number from a route parameter, or null. */
export function positiveId(raw: string | undefined): number | null {
  if (!raw || !/^\d{1,9}$/.test(raw)) return null;
  const n = Number(raw);
  return n > 0 ? n : null;
}

/** 5373057 → 537.3万 */
export const readCountLabel = (n: number) => (n >= 10000 ? `${(n / 10000).toFixed(1)}万` : String(n));

export const priceLabel = (price: number) => (price === 0 ? '免费' : `${price}阅币`);

export const readerPath = (bookId: number, number: number, title: string, title2?: string) => {
  const q = new URLSearchParams({ title });
  if (title2) q.set('title2', title2);
  return `/book/read/${bookId}/${number}?${q.toString()}`;
};

export const catalogPath = (bookId: number, title: string) =>
  `/book/${bookId}/catalog?${new URLSearchParams({ title }).toString()}`;
