// The cluster runs the build `npm start` runs: make it when a source is newer (npm test has just built it).
// @ts-expect-error: a script of the repository, plain JavaScript without types
import { buildServer, serverSources } from '../../../../scripts/build-server.mjs';
// @ts-expect-error: as above
import { stale } from '../../../../scripts/stale.mjs';

export default async function setup() {
  const built = new URL('../../dist/main.js', import.meta.url).pathname;
  if (stale(built, serverSources)) await buildServer();
}
