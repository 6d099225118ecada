// A throwaway S3 server on loopback (s3rver, files in a temporary directory) with one bucket, for the S3 storage.
import { mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DeleteObjectCommand, ListObjectsV2Command, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';

interface S3rverInstance {
  run(): Promise<{ port: number }>;
  close(): Promise<void>;
  on(
    event: 'event',
    listener: (e: { Records: { eventName: string; s3: { object: { key: string } } }[] }) => void,
  ): void;
}
type S3rverClass = new (options: object) => S3rverInstance;

/** s3rver is CommonJS without types. */
const S3rver = createRequire(import.meta.url)('s3rver') as S3rverClass;

export type TestS3 = Awaited<ReturnType<typeof startS3>>;

export async function startS3(bucket = 'yueman-images') {
  const directory = await mkdtemp(path.join(tmpdir(), 'yueman-s3-'));
  const server = new S3rver({
    port: 0,
    address: '127.0.0.1',
    silent: true,
    directory,
    configureBuckets: [{ name: bucket }],
  });
  const { port } = await server.run();
  /** The keys written (PutObject), in order: which server wrote what is told by when. */
  const puts: string[] = [];
  server.on('event', (e) => {
    for (const r of e.Records)
      if (r.eventName.startsWith('ObjectCreated')) puts.push(decodeURIComponent(r.s3.object.key));
  });
  const endpoint = `http://127.0.0.1:${port}`;
  /** The settings of an app on this store. */
  const env = {
    STORAGE: 's3',
    S3_ENDPOINT: endpoint,
    S3_BUCKET: bucket,
    S3_REGION: 'us-east-1',
    S3_ACCESS_KEY_ID: 'S3RVER',
    S3_SECRET_ACCESS_KEY: 'S3RVER',
    S3_FORCE_PATH_STYLE: 'true',
  };
  const client = new S3Client({
    endpoint,
    region: 'us-east-1',
    forcePathStyle: true,
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
  });
  return {
    env,
    endpoint,
    bucket,
    client,
    puts,
    /** Every key in the bucket, sorted. */
    async keys(prefix = ''): Promise<string[]> {
      const out = await client.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix }));
      return (out.Contents ?? []).map((o) => o.Key ?? '').sort();
    },
    async put(key: string, body: Buffer) {
      await client.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: body }));
    },
    async remove(key: string) {
      await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: key }));
    },
    async close() {
      client.destroy();
      await server.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}
