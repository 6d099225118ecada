const fetchedAhead = new Set<string>();
/**
 * Fetches an image ahead of its showing (the next pages of a chapter, the next chapter's first pages), once per
 * address in this page's life: the browser's cache then answers the <img> that shows it.
 */
export function fetchImageAhead(url: string) {
  if (fetchedAhead.has(url)) return;
  fetchedAhead.add(url);
  const img = new Image();
  img.decoding = 'async';
  img.src = url;
}
