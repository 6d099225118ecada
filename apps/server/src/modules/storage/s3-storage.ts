import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import {
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import type { S3Settings } from '../../config.ts';
import type { StoragePort, StoredInfo } from './storage.port.ts';

/** Connections to the store at once: each streamed answer holds one until the reader has it all. */
const MAX_SOCKETS = 256;

interface S3Failure {
  name?: string;
  $metadata?: { httpStatusCode?: number };
}

/** No such object (GetObject: NoSuchKey; HeadObject, which has no body: NotFound). A missing bucket is an error. */
function isMissing(err: unknown): boolean {
  const e = err as S3Failure;
  if (e?.name === 'NoSuchBucket') return false;
  return e?.name === 'NoSuchKey' || e?.name === 'NotFound' || e?.$metadata?.httpStatusCode === 404;
}

async function orNull<T>(call: Promise<T>): Promise<T | null> {
  try {
    return await call;
  } catch (err) {
    if (isMissing(err)) return null;
    throw err;
  }
}

export interface S3Storage extends StoragePort {
  /** Closes the client's connections (app close). */
  close(): void;
}

/**
 * The store in an S3 bucket (AWS, or Aliyun OSS, Tencent COS, MinIO through S3_ENDPOINT; path style for those
 * that want it). Keys are the storage keys as they are.
 */
export function createS3Storage(settings: S3Settings): S3Storage {
  const client = new S3Client({
    endpoint: settings.endpoint,
    region: settings.region,
    forcePathStyle: settings.forcePathStyle,
    credentials: { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey },
    // Checksums only where S3 requires them: the SDK's newer defaults (CRC32 on every upload and download) are
    // refused or ignored by some S3-compatible stores.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    requestHandler: {
      // A store that does not answer fails the request (and /readyz) instead of holding it for ever.
      connectionTimeout: 3000,
      socketTimeout: 60_000,
      httpAgent: { keepAlive: true, maxSockets: MAX_SOCKETS },
      httpsAgent: { keepAlive: true, maxSockets: MAX_SOCKETS },
    },
  });
  const Bucket = settings.bucket;

  return {
    async get(key) {
      const out = await orNull(client.send(new GetObjectCommand({ Bucket, Key: key })));
      if (!out?.Body) return null;
      const body = out.Body as Readable;
      const etag = out.ETag ?? '';
      if (out.ContentLength !== undefined) return { body, size: out.ContentLength, etag };
      // A store that answered without a length (chunked): read it, so the answer can still say its length.
      const bytes = Buffer.concat(await body.toArray());
      return { body: Readable.from([bytes]), size: bytes.length, etag };
    },
    async head(key) {
      const out = await orNull(client.send(new HeadObjectCommand({ Bucket, Key: key })));
      return out ? { size: out.ContentLength ?? 0, etag: out.ETag ?? '' } : null;
    },
    async read(key) {
      const out = await orNull(client.send(new GetObjectCommand({ Bucket, Key: key })));
      if (!out?.Body) return null;
      return Buffer.from(await out.Body.transformToByteArray());
    },
    async put(key, body, contentType) {
      const out = await client.send(
        new PutObjectCommand({ Bucket, Key: key, Body: body, ContentType: contentType }),
      );
      // S3's ETag of a single upload is the MD5 of its bytes: the same when a store leaves it out.
      const etag = out.ETag ?? `"${createHash('md5').update(body).digest('hex')}"`;
      return { size: body.length, etag } satisfies StoredInfo;
    },
    async ready() {
      await client.send(new HeadBucketCommand({ Bucket }));
    },
    close: () => client.destroy(),
  };
}
