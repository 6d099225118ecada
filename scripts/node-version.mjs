// The Node version the service and its tools need (package.json `engines`), checked before anything else runs:
// `npm start`, `npm run dev`, the command-line tools (run-cli.mjs) and the system check of `npm test`
// (system-deps.mjs). Plain JavaScript that any Node since 12 can parse, so an old Node reads the one line.
import { readFileSync } from 'node:fs';

const engines = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).engines;
/** The oldest major version of Node this checkout runs on, from package.json's `engines.node` (">=24"). */
export const nodeMajorNeeded = Number(/>=\s*(\d+)/.exec(engines.node)?.[1]);

/** The one line to print when `version` ("v20.20.2", as process.version) is too old, else undefined. */
export function nodeTooOld(version) {
  const major = Number(/^v?(\d+)/.exec(version)?.[1]);
  if (major >= nodeMajorNeeded) return undefined;
  return `阅漫 needs Node ${nodeMajorNeeded} or newer (Node ${nodeMajorNeeded} LTS; 26 also works), and this is Node ${version.replace(/^v/, '')}: install it from https://nodejs.org/ and run the command again.`;
}

/** Exits with status 1 and the one line when this Node is too old. */
export function requireNode() {
  const problem = nodeTooOld(process.version);
  if (!problem) return;
  console.error(problem);
  process.exit(1);
}
