import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startS3, type TestS3 } from '../../../test/s3-server.ts';
import { ConfigError, loadConfig } from '../../config.ts';
import { createLocalStorage, originalKey, type StoragePort, variantKey } from './index.ts';
import { createS3Storage } from './s3-storage.ts';

let dir: string;
let s3: TestS3;
const s3Settings = () => ({
  endpoint: s3.endpoint,
  bucket: s3.bucket,
  region: 'us-east-1',
  accessKeyId: 'S3RVER',
  secretAccessKey: 'S3RVER',
  forcePathStyle: true,
});

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'storage-'));
  s3 = await startS3();
});
afterAll(async () => {
  await s3?.close();
  await rm(dir, { recursive: true, force: true });
});

const adapters: [string, () => StoragePort][] = [
  [
    'local',
    () =>
      createLocalStorage({
        originals: path.join(dir, 'root'),
        variants: path.join(dir, 'cache'),
        writesOriginals: true,
      }),
  ],
  ['s3', () => createS3Storage(s3Settings())],
];

describe.each(adapters)('the %s store', (_kind, make) => {
  let store: StoragePort;
  beforeAll(() => {
    store = make();
  });

  it('answers null for a key it does not have', async () => {
    const key = originalKey('pages/none/1.png');
    expect(await store.get(key)).toBeNull();
    expect(await store.head(key)).toBeNull();
    expect(await store.read(key)).toBeNull();
  });

  it('keeps what is put, with its size and one ETag for put, head and get', async () => {
    const key = variantKey('pages/t/a.png', 500);
    const bytes = randomBytes(1000);
    const put = await store.put(key, bytes, 'image/webp');
    expect(put).toEqual({ size: 1000, etag: expect.stringMatching(/^"[\w-]+"$/) });
    expect(await store.head(key)).toEqual(put);
    expect((await store.read(key))?.equals(bytes)).toBe(true);
    const got = await store.get(key);
    if (!got) throw new Error('the object is not there');
    expect(got).toMatchObject(put);
    expect(Buffer.concat(await got.body.toArray()).equals(bytes)).toBe(true);
    // Written again: a new ETag, so no reader keeps the old bytes as current.
    const again = await store.put(key, randomBytes(1000));
    expect(again.etag).not.toBe(put.etag);
  });

  it('gives a large object as a stream with its length, without reading it first', async () => {
    const key = variantKey('pages/t/large.png', 1000);
    const bytes = randomBytes(8 * 1024 * 1024);
    await store.put(key, bytes, 'image/webp');
    const got = await store.get(key);
    expect(got?.size).toBe(bytes.length);
    expect(got?.body).toBeInstanceOf(Readable);
    // Nothing has been read into the stream's buffer beyond what flows by itself (a chunk or so, not the object).
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(got?.body.readableLength ?? 0).toBeLessThan(bytes.length / 4);
    let received = 0;
    let largest = 0;
    for await (const chunk of got?.body ?? []) {
      received += (chunk as Buffer).length;
      largest = Math.max(largest, (chunk as Buffer).length);
    }
    expect(received).toBe(bytes.length);
    expect(largest).toBeLessThan(bytes.length / 4);
  });

  it('is ready when it can be read and written', async () => {
    await expect(store.ready()).resolves.toBeUndefined();
  });
});

describe('the local store', () => {
  it('keeps originals under IMAGE_ROOT and variants under IMAGE_CACHE_DIR, as before', async () => {
    const store = createLocalStorage({ originals: path.join(dir, 'o'), variants: path.join(dir, 'v') });
    await store.put(originalKey('covers/t/c.png'), Buffer.from('original'));
    await store.put(variantKey('covers/t/c.png', 200), Buffer.from('variant'));
    expect(await readFile(path.join(dir, 'o/covers/t/c.png'), 'utf8')).toBe('original');
    expect(await readFile(path.join(dir, 'v/200/covers/t/c.png.webp'), 'utf8')).toBe('variant');
  });

  it('refuses keys outside its two prefixes and its directories', async () => {
    const store = createLocalStorage({ originals: path.join(dir, 'o'), variants: path.join(dir, 'v') });
    await writeFile(path.join(dir, 'secret'), 'x');
    for (const key of ['secret', 'other/secret', 'originals/../secret', 'variants/../../secret']) {
      await expect(store.get(key), key).rejects.toThrow(/not a storage key/);
    }
  });

  it('is not ready when the image root is missing and nothing draws into it', async () => {
    const missing = path.join(dir, 'none', 'images');
    const reading = createLocalStorage({ originals: missing, variants: path.join(dir, 'v2') });
    await expect(reading.ready()).rejects.toThrow(/ENOENT/);
    // With the demo drawer the root is made when needed.
    const drawing = createLocalStorage({
      originals: missing,
      variants: path.join(dir, 'v2'),
      writesOriginals: true,
    });
    await expect(drawing.ready()).resolves.toBeUndefined();
  });
});

describe('the S3 store', () => {
  it('is not ready when the bucket is not there, and says so', async () => {
    const store = createS3Storage({ ...s3Settings(), bucket: 'no-such-bucket' });
    await expect(store.ready()).rejects.toThrow();
    // A missing bucket is an error, not a missing image.
    await expect(store.get(originalKey('pages/a.png'))).rejects.toThrow(/bucket/i);
    store.close();
  });

  it('keeps keys as they are, originals and variants side by side', async () => {
    const store = createS3Storage(s3Settings());
    await store.put(originalKey('ads/t/1.png'), Buffer.from('o'), 'image/png');
    await store.put(variantKey('ads/t/1.png', 180), Buffer.from('v'), 'image/webp');
    expect(await s3.keys('originals/ads/')).toEqual(['originals/ads/t/1.png']);
    expect(await s3.keys('variants/180/ads/')).toEqual(['variants/180/ads/t/1.png.webp']);
    store.close();
  });
});

describe('STORAGE', () => {
  // Keys are generated into the data directory: a temporary one.
  let base: { DATA_DIR: string };
  beforeAll(() => {
    base = { DATA_DIR: path.join(dir, 'data') };
  });
  const full = {
    STORAGE: 's3',
    S3_ENDPOINT: 'https://oss-cn-hangzhou.aliyuncs.com',
    S3_BUCKET: 'yueman',
    S3_REGION: 'oss-cn-hangzhou',
    S3_ACCESS_KEY_ID: 'id',
    S3_SECRET_ACCESS_KEY: 'secret',
  };

  it('is local by default, on IMAGE_ROOT and IMAGE_CACHE_DIR', () => {
    expect(loadConfig(base)).toMatchObject({ storage: 'local', s3: undefined });
  });

  it('takes s3 with every S3 setting', () => {
    expect(loadConfig({ ...base, ...full })).toMatchObject({
      storage: 's3',
      s3: {
        endpoint: 'https://oss-cn-hangzhou.aliyuncs.com',
        bucket: 'yueman',
        region: 'oss-cn-hangzhou',
        accessKeyId: 'id',
        secretAccessKey: 'secret',
        forcePathStyle: false,
      },
    });
    expect(loadConfig({ ...base, ...full, S3_FORCE_PATH_STYLE: 'true' }).s3?.forcePathStyle).toBe(true);
  });

  it('refuses s3 without a setting it needs, naming it', () => {
    for (const name of [
      'S3_ENDPOINT',
      'S3_BUCKET',
      'S3_REGION',
      'S3_ACCESS_KEY_ID',
      'S3_SECRET_ACCESS_KEY',
    ] as const) {
      const { [name]: _left, ...rest } = full;
      expect(() => loadConfig({ ...base, ...rest }), name).toThrow(ConfigError);
      expect(() => loadConfig({ ...base, ...rest }), name).toThrow(`${name} is required with STORAGE=s3`);
      expect(() => loadConfig({ ...base, ...rest, [name]: ' ' }), name).toThrow(name);
    }
  });

  it('refuses other stores and endpoints that are not addresses, without repeating a secret', () => {
    expect(() => loadConfig({ ...base, STORAGE: 'minio' })).toThrow(
      'STORAGE must be local or s3, got "minio"',
    );
    expect(() => loadConfig({ ...base, ...full, S3_ENDPOINT: 'oss-cn-hangzhou.aliyuncs.com' })).toThrow(
      /^S3_ENDPOINT must be an http\(s\) URL/,
    );
    try {
      loadConfig({ ...base, ...full, S3_BUCKET: '' });
      expect.unreachable();
    } catch (err) {
      expect(String(err)).not.toContain('secret');
    }
  });
});
