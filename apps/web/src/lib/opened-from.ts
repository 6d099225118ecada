const KEY = 'yueman.openedFromConsole';
const marked = (search: string) => new URLSearchParams(search).get('from') === 'console';

/**
 * Whether this tab of the reader app was opened from the console (its first address marked `from=console`, as an
 * operator follows a complaint's page link): kept for the tab's life, as the app's own links drop the mark. Its
 * calls then say so (header x-opened-from), and the server does not count staff's looking as a reader seen.
 */
export function openedFromConsole(search = globalThis.location?.search ?? ''): boolean {
  try {
    if (marked(search)) sessionStorage.setItem(KEY, '1');
    return sessionStorage.getItem(KEY) === '1';
  } catch {
    // Storage refused (a private mode): the mark on the address is all there is.
    return marked(search);
  }
}
