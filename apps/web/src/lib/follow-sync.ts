import type { Book, FollowChange, FollowList, PileUp } from '@yueman/contract';
import { data, routes } from './api-client.ts';
import { useShelfStore } from './shelf-store.ts';

// The account's copy of the follows (追更): each follow or unfollow on this device is sent at once; at start the
// account's list is pulled, this device's follows the account does not hold yet are sent first (all of them after a
// login: the device's list merged into the account), and the account's list then replaces this device's.

let applying = false;

function apply(list: FollowList) {
  applying = true;
  try {
    useShelfStore.getState().applyAccount(list);
  } finally {
    applying = false;
  }
}

const send = (change: FollowChange) => data(routes.saveFollows, { form: change });

/** Sends one change; the account's answer replaces this device's list. Failing, it is sent at the next pull. */
async function push(change: FollowChange) {
  try {
    apply(await send(change));
  } catch {
    // Kept unsynced on this device: the next pull sends it.
  }
}

/**
 * The account's follows merged into this device's. `all`: every follow of this device is sent first (after a login,
 * the device's list joins the account's); otherwise only those not yet there.
 */
export async function pullFollows(opts: { all?: boolean } = {}) {
  const { favourites, follows } = useShelfStore.getState();
  let list: FollowList | undefined;
  for (const book of favourites) {
    const meta = follows[book.bookId];
    if (meta?.synced && !opts.all) continue;
    list = await send({
      bookId: book.bookId,
      followed: true,
      ...(meta ? { seenChapter: meta.seenChapter, pileUp: meta.pileUp } : {}),
    });
  }
  apply(list ?? (await data(routes.follows)));
}

/** The shelf was looked at: every followed book's newest chapter is seen (the tab's dot goes out). */
export function markShelfSeen() {
  const { favourites, follows, setFollowMeta } = useShelfStore.getState();
  for (const book of favourites) {
    const meta = follows[book.bookId];
    if (!meta || meta.latestChapter <= meta.seenChapter) continue;
    setFollowMeta(book.bookId, { seenChapter: meta.latestChapter });
    void push({ bookId: book.bookId, followed: true, seenChapter: meta.latestChapter });
  }
}

/** 攒更: tell the reader once `pileUp` new chapters have piled up (0: off). */
export function setPileUp(bookId: number, pileUp: PileUp) {
  useShelfStore.getState().setFollowMeta(bookId, { pileUp });
  void push({ bookId, followed: true, pileUp });
}

/** A follow or unfollow on this device (any screen's 收藏 button) goes to the account at once. */
function followsChanged(now: readonly Book[], before: readonly Book[]) {
  if (applying || now === before) return;
  const ids = new Set(now.map((b) => b.bookId));
  const was = new Set(before.map((b) => b.bookId));
  for (const b of now) if (!was.has(b.bookId)) void push({ bookId: b.bookId, followed: true });
  for (const b of before) if (!ids.has(b.bookId)) void push({ bookId: b.bookId, followed: false });
}

if (typeof window !== 'undefined') {
  useShelfStore.subscribe((s, prev) => followsChanged(s.favourites, prev.favourites));
}
