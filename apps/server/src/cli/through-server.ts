import { sendControlCommand } from '../control-socket.ts';

/**
 * A command-line tool's work done by the server that holds DATA_DIR (its control socket): the result, or undefined
 * once the reason it failed (no answer, or the server's refusal) is printed as `<tool>: …`.
 */
export async function throughServer(
  tool: string,
  dataDir: string,
  command: string,
  args: Record<string, unknown>,
): Promise<{ result: unknown } | undefined> {
  const answer = await sendControlCommand(dataDir, command, args).catch((err: Error) => {
    console.error(
      `${tool}: a server holds ${dataDir} but its control socket did not answer (${err.message})`,
    );
    return undefined;
  });
  if (!answer) return undefined;
  if (!answer.ok) {
    console.error(`${tool}: ${answer.error}`);
    return undefined;
  }
  console.log(`${tool}: done by the running server`);
  return { result: answer.result };
}
