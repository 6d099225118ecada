/**
 * npm run operator -- add NAME --role ROLE | passwd NAME
 * Creates a console operator, or gives one a new password; either way the generated password is printed once.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { type DatabaseTarget, openDatabase } from '../db/client.ts';
import { DataDirLockedError, lockDataDir } from '../db/data-dir-lock.ts';
import { operatorCommands } from '../modules/operators/index.ts';
import { AppError } from '../shared/errors.ts';
import { throughServer } from './through-server.ts';

const USAGE = `Usage:
  npm run operator -- add NAME --role ROLE   a new operator (ROLE: owner, editor, finance or support)
  npm run operator -- passwd NAME            a new password for NAME (their console sessions end)
The password is generated and printed once. Database: DATABASE_URL (PostgreSQL) if set, else PGlite under
DATA_DIR (default ./data); when a server is running on that DATA_DIR, it does the work (its control socket).`;

class UsageError extends Error {}

type Command =
  | { command: 'help' }
  | { command: 'add'; name: string; role: string }
  | { command: 'passwd'; name: string };

function parse(argv: string[]): Command {
  let parsed: { values: { role?: string; help?: boolean }; positionals: string[] };
  try {
    parsed = parseArgs({
      args: argv,
      options: { role: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
      allowPositionals: true,
      strict: true,
    });
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  const { values, positionals } = parsed;
  if (values.help) return { command: 'help' };
  const [command, name, ...extra] = positionals;
  if (extra.length > 0 || !name) throw new UsageError('one command and one NAME');
  if (command === 'add') {
    if (!values.role) throw new UsageError('add needs --role');
    return { command, name, role: values.role };
  }
  if (command === 'passwd') {
    if (values.role) throw new UsageError('passwd takes no --role');
    return { command, name };
  }
  throw new UsageError(`unknown command "${command ?? ''}"`);
}

async function main(): Promise<number> {
  let args: Command;
  try {
    args = parse(process.argv.slice(2));
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    console.error(`operator: ${err.message}\n\n${USAGE}`);
    return 2;
  }
  if (args.command === 'help') {
    console.log(USAGE);
    return 0;
  }
  const url = process.env.DATABASE_URL?.trim();
  const dataDir = path.resolve(process.env.DATA_DIR ?? './data');
  const target: DatabaseTarget = url ? { kind: 'postgres', url } : { kind: 'pglite', dataDir };
  // Run from another folder or without the server's DATA_DIR, the tool would make a new, empty database and add
  // the operator there, where no server looks: it stops instead, creating nothing.
  if (target.kind === 'pglite' && !existsSync(path.join(dataDir, 'pglite', 'PG_VERSION'))) {
    console.error(
      `operator: no database in ${dataDir} (DATA_DIR). Set DATA_DIR to the server's data directory ` +
        '(or DATABASE_URL for PostgreSQL), or start the server once so that it creates its database there.',
    );
    return 1;
  }
  let release: (() => Promise<void>) | undefined;
  try {
    release = target.kind === 'pglite' ? await lockDataDir(dataDir) : undefined;
  } catch (err) {
    if (!(err instanceof DataDirLockedError)) throw err;
    // A running server holds the embedded database: it does the work, through its control socket.
    return byServer(dataDir, args);
  }
  try {
    const opened = await openDatabase(target);
    try {
      const commands = operatorCommands(opened.db);
      if (args.command === 'add') {
        const { operator, password } = await commands.add(args.name, args.role);
        console.log(
          `operator: added ${operator.name} (${operator.role})\npassword: ${password}\nShown this once: keep it now.`,
        );
      } else {
        const password = await commands.passwd(args.name);
        console.log(
          `operator: new password for ${args.name}\npassword: ${password}\nShown this once: keep it now.`,
        );
      }
      return 0;
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      console.error(`operator: ${err.message}`);
      return 1;
    } finally {
      await opened.close();
    }
  } finally {
    await release?.();
  }
}

/** The command, run by the server that holds DATA_DIR (src/control-socket.ts). */
async function byServer(dataDir: string, args: Exclude<Command, { command: 'help' }>): Promise<number> {
  const answer = await throughServer(
    'operator',
    dataDir,
    `operator.${args.command}`,
    args.command === 'add' ? { name: args.name, role: args.role } : { name: args.name },
  );
  if (!answer) return 1;
  if (args.command === 'add') {
    const { operator, password } = answer.result as {
      operator: { name: string; role: string };
      password: string;
    };
    printAdded(operator, password);
  } else printRotated(args.name, (answer.result as { password: string }).password);
  return 0;
}

const printAdded = (operator: { name: string; role: string }, password: string) =>
  console.log(
    `operator: added ${operator.name} (${operator.role})\npassword: ${password}\nShown this once: keep it now.`,
  );
const printRotated = (name: string, password: string) =>
  console.log(`operator: new password for ${name}\npassword: ${password}\nShown this once: keep it now.`);

main().then(
  (code) => process.exit(code),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
