// The baseline of bench/uncached.mjs: a bare Fastify app answering the calls no cache can take (a priced chapter the
// reader owns, /api/user/info, a purchase) with the server's own session lookup, services and repositories, so it
// sends PostgreSQL the same SQL, on the same database. No plugin, hook, schema, security header, metric or log line:
// what the server adds on top is what the ratio measures. Usage: tsx bench/bare-app.ts PORT (DATABASE_URL and
// PAGE_GRANT_KEY in the environment); prints "listening" once it is.
import Fastify from 'fastify';
import { openDatabase } from '../apps/server/src/db/client.ts';
import { createCatalogRepository } from '../apps/server/src/modules/catalog/catalog.repository.ts';
import { readChapter } from '../apps/server/src/modules/catalog/catalog.service.ts';
import { createPageGrants } from '../apps/server/src/modules/images/page-grant.ts';
import { resolveSession } from '../apps/server/src/modules/users/sessions.ts';
import { createUsersRepository } from '../apps/server/src/modules/users/users.repository.ts';
import { userInfo } from '../apps/server/src/modules/users/users.service.ts';
import { createUnlockReadsRepository } from '../apps/server/src/modules/wallet/unlock-reads.repository.ts';
import { createUnlocksRepository } from '../apps/server/src/modules/wallet/unlocks.repository.ts';
import { isVip } from '../apps/server/src/modules/wallet/vip.ts';
import { createWalletRepository } from '../apps/server/src/modules/wallet/wallet.repository.ts';
import { buyChapter } from '../apps/server/src/modules/wallet/wallet.service.ts';
import { ok } from '../apps/server/src/shared/envelope.ts';

const port = Number(process.argv[2]);
const { db } = await openDatabase({ kind: 'postgres', url: String(process.env.DATABASE_URL) });
const usersRepo = createUsersRepository(db);
const walletRepo = createWalletRepository(db);
const grants = createPageGrants(Buffer.from(String(process.env.PAGE_GRANT_KEY), 'hex'));
const unlocksRepo = createUnlocksRepository(db);
const unlockReads = createUnlockReadsRepository(db);
// The same read paths of the unlock ledger the wallet module gives the catalogue (modules/wallet/index.ts).
const catalogDeps = {
  repo: createCatalogRepository(db),
  unlocks: {
    heldUnlock: (userId: number, chapterId: number) => unlocksRepo.held(userId, chapterId),
    unlockOptions: (userId: number, chapterId: number) => unlocksRepo.options(userId, chapterId),
    chapterMarks: unlockReads.chapterMarks,
    bookWaitFree: unlockReads.bookWaitFree,
  },
  grantPage: (path: string) => grants.grant(path),
};

const app = Fastify();
/** The reader of the `sid` cookie, as the server's identity plugin finds it (resolveSession). */
async function reader(cookie: string | undefined) {
  const token = /(?:^|;\s*)sid=([^;]+)/.exec(cookie ?? '')?.[1];
  const found = token ? await resolveSession(usersRepo, token) : null;
  if (!found) throw new Error('no session');
  return found.user;
}

app.get('/api/user/info', async (req) => {
  const user = await reader(req.headers.cookie);
  return ok(await userInfo({ repo: usersRepo, balanceOf: walletRepo.balanceOf }, { userId: user.userId }));
});
app.get<{ Querystring: { bookId: string; number: string } }>('/api/book/read_chapter', async (req) => {
  const user = await reader(req.headers.cookie);
  const q = { bookId: Number(req.query.bookId), number: Number(req.query.number) };
  return ok(await readChapter(catalogDeps, { ...q, reader: { userId: user.userId, isVip: isVip(user) } }));
});
app.post<{ Querystring: { chapterId: string } }>('/api/book/chapter/buy', async (req) => {
  const user = await reader(req.headers.cookie);
  const input = { userId: user.userId, isVip: isVip(user), chapterId: Number(req.query.chapterId) };
  return ok(await buyChapter({ repo: walletRepo }, input), '购买成功');
});

await app.listen({ port, host: '127.0.0.1' });
console.log('listening');
