// The project stands on public APIs only: no code under apps/ or packages/ (the server, its tests, the two web apps,
// the contract) reads or writes an underscore field of a Node or library object (socket._readableState, _handle,
// server._connections, socket._server...). Such fields change without notice between Node versions, so a Node
// upgrade could break the server or its tests silently. No database involved: it reads the source files.
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../../..');
const CODE = ['apps', 'packages'];
/** Installed packages and build output: not our code. */
const NOT_OURS = /(^|\/)(node_modules|dist[\w-]*|\.tmp)\//;
/** `x._name`, `x?._name` and `x['_name']`: a member whose name starts with an underscore. */
const PRIVATE_MEMBER = /\??\._[A-Za-z]\w*|\[\s*['"`]_[A-Za-z]\w*['"`]\s*\]/g;
/** Fields of Node's own objects named outright, whatever the syntax reaching them (a destructuring, a type). */
const NODE_PRIVATE =
  /\b_(readableState|writableState|handle|connections|server|events|parent|httpMessage)\b/g;
/**
 * Files allowed to name an underscore member, each with the reason. Empty: our own objects need no such names either.
 */
const ALLOWED: Record<string, string> = {
  'apps/server/test/no-private-fields.test.ts':
    'the check itself: its patterns and the examples it must find',
};

async function sourceFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries
    .filter((e) => e.isFile() && /\.(ts|tsx|mts|js|mjs)$/.test(e.name))
    .map((e) => path.join(e.parentPath, e.name))
    .filter((file) => !NOT_OURS.test(path.relative(ROOT, file)));
}

/** The lines of `text` that name a private member, as `file:line: text`. */
export function privateMembers(file: string, text: string): string[] {
  return text.split('\n').flatMap((line, i) => {
    const found = [...line.matchAll(PRIVATE_MEMBER), ...line.matchAll(NODE_PRIVATE)];
    return found.length > 0 ? [`${file}:${i + 1}: ${line.trim()}`] : [];
  });
}

describe('no private fields of Node or libraries', () => {
  it('the check finds what it is for', () => {
    expect(privateMembers('x.ts', 'const s = (socket as any)._readableState?.ended;')).toHaveLength(1);
    expect(privateMembers('x.ts', "server['_connections']++;")).toHaveLength(1);
    expect(privateMembers('x.ts', 'const { _handle } = socket;')).toHaveLength(1);
    expect(privateMembers('x.ts', 'socket?._server;')).toHaveLength(1);
    expect(
      privateMembers('x.ts', 'const url = path + "_500_0.img"; const a = b.c_d; const _unused = 1;'),
    ).toEqual([]);
  });

  it('nothing under apps/ or packages/ reads or writes one', async () => {
    const found: string[] = [];
    const files = (await Promise.all(CODE.map((dir) => sourceFiles(path.join(ROOT, dir))))).flat();
    // The walk reaches the server's own source: a check that read nothing would pass whatever the code.
    expect(files).toContain(path.join(ROOT, 'apps/server/src/app.ts'));
    for (const file of files) {
      const relative = path.relative(ROOT, file);
      if (ALLOWED[relative]) continue;
      found.push(...privateMembers(relative, await readFile(file, 'utf8')));
    }
    expect(found).toEqual([]);
  });
});
