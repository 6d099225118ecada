// Vitest globalSetup of the server projects: the processes the tests start (server-process.ts, cli-process.ts) run
// the build `npm start` runs, apps/server/dist, never the TypeScript sources through tsx (which transforms the
// whole server again at every start: seconds each, for some fifty starts a run). `npm test` builds before vitest;
// here a build older than its sources (an edit since, or `npx vitest` alone) is made again, as `npm start` does.
import { buildServer, serverSources } from '../../../scripts/build-server.mjs';
import { stale } from '../../../scripts/stale.mjs';
import { builtMain } from './server-process.ts';

export default async function setup() {
  if (!stale(builtMain, serverSources)) return;
  const started = performance.now();
  await buildServer({ quiet: true });
  console.log(`server built for the tests in ${Math.round(performance.now() - started)} ms`);
}
