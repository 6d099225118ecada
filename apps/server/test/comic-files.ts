// The files publishers hand over, made in a test: page pictures and .cbz/.zip archives of them.
import { createWriteStream } from 'node:fs';
import sharp from 'sharp';
import yazl from 'yazl';

/** A PNG of this size, in a colour: pages are told apart by their heights. */
export const png = (width: number, height: number, background = '#48a') =>
  sharp({ create: { width, height, channels: 3, background } })
    .png()
    .toBuffer();

function archiveOf(entries: Record<string, Buffer | string>) {
  const archive = new yazl.ZipFile();
  for (const [name, body] of Object.entries(entries)) archive.addBuffer(Buffer.from(body), name);
  archive.end();
  return archive.outputStream;
}

/** Writes a zip of `entries` (name → bytes) to `file`. */
export async function zip(file: string, entries: Record<string, Buffer | string>) {
  await new Promise<void>((resolve, reject) =>
    archiveOf(entries).pipe(createWriteStream(file)).on('close', resolve).on('error', reject),
  );
}

/** A zip of `entries` in memory (an upload's body). */
export async function zipBytes(entries: Record<string, Buffer | string>): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of archiveOf(entries)) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}
