// What the importer tells an operator when the files cannot be read (the console's upload screen and `npm run import`
// show it as it is): said in Chinese, naming the file; Node's and the zip library's own English words stay out.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { png, zipBytes } from '../../../test/comic-files.ts';
import { readBookSource, unreadableFileReason } from './import-source.ts';

/** The message without the file names in it has no English word. */
const inChinese = (message: string) =>
  expect(message.replace(/[^\s:：（）›]*\.(png|zip|cbz|txt)|\/[^\s:：]*|\b(zip|cbz)\b/g, '')).not.toMatch(
    /[A-Za-z]{3,}/,
  );

const refusal = async (source: string) => {
  const err = await readBookSource(source).then(
    () => undefined,
    (e: Error) => e,
  );
  if (!err) throw new Error(`${source} was read`);
  inChinese(err.message);
  return err.message;
};

describe('the importer’s refusals of files it cannot read', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'ym-import-source-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('a path that is not there', async () => {
    const message = await refusal(path.join(dir, '没有这本书'));
    expect(message).toContain('没有这本书: 找不到这个文件或文件夹');
  });

  it('a file that is not an archive, and a text file named .zip', async () => {
    await writeFile(path.join(dir, 'notes.txt'), 'hello');
    expect(await refusal(path.join(dir, 'notes.txt'))).toContain('notes.txt: 不是 .cbz 或 .zip');
    await writeFile(path.join(dir, 'fake.zip'), 'this is not a zip file at all, just some words');
    expect(await refusal(path.join(dir, 'fake.zip'))).toContain('fake.zip: 不是完整的 zip 压缩包');
  });

  it('an archive cut short (an upload that did not finish)', async () => {
    const whole = await zipBytes({ '1.png': await png(100, 150), '2.png': await png(100, 160) });
    await writeFile(path.join(dir, 'cut.zip'), whole.subarray(0, Math.floor(whole.length / 2)));
    expect(await refusal(path.join(dir, 'cut.zip'))).toContain('cut.zip: 不是完整的 zip 压缩包');
  });

  it('a folder with no pictures', async () => {
    await mkdir(path.join(dir, 'empty', '第1话'), { recursive: true });
    expect(await refusal(path.join(dir, 'empty'))).toContain('没有找到含图片的章节');
  });

  it('a page whose bytes in the archive are damaged: the reason the import names with the page', async () => {
    const whole = await zipBytes({ '1.png': await png(100, 150) });
    // The page's local header (at the start) no longer says what it is; the archive's directory still lists it.
    const damaged = Buffer.from(whole);
    damaged.write('XXXX', 0, 'latin1');
    await writeFile(path.join(dir, 'damaged.zip'), damaged);
    const { book, close } = await readBookSource(path.join(dir, 'damaged.zip'));
    try {
      const page = book.chapters[0]?.pages[0];
      const err = await page?.read().then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(err).toBeDefined();
      expect(unreadableFileReason(err)).toBe('压缩包内容已损坏');
    } finally {
      close();
    }
  });

  it('says the library’s other failures in Chinese too, and never passes English on', () => {
    const coded = (code: string) => Object.assign(new Error(`${code}: something`), { code });
    expect(unreadableFileReason(coded('EACCES'))).toBe('没有读取权限');
    expect(unreadableFileReason(coded('Z_DATA_ERROR'))).toBe('压缩包内容已损坏');
    expect(unreadableFileReason(new Error('entry is encrypted, and options.decrypt !== false'))).toBe(
      '压缩包设置了密码：请去掉密码再导入',
    );
    expect(unreadableFileReason(new Error('unsupported compression method: 14'))).toBe(
      '压缩方式不支持：请用普通的 zip 压缩',
    );
    expect(unreadableFileReason(new Error('something nobody expected'))).toBe(
      '无法读取（文件已损坏或格式不支持）',
    );
    expect(unreadableFileReason('not even an error')).toBe('无法读取（文件已损坏或格式不支持）');
  });
});
