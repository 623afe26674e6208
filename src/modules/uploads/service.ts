import { createHash } from 'node:crypto';
import path from 'node:path';
import type { Config } from '../../config';
import { ApiError } from '../../http/errors';
import { diskStore } from './disk-store';
import { IMAGE_TYPES, looksLikeSvg, sniffImage } from './image-type';
import { s3Store } from './s3-store';
import type { ImageStore } from './store';

/** The bucket when one is configured, else the folder UPLOADS_DIR. */
export function imageStoreFor(config: Config): ImageStore {
  if (!config.UPLOADS_S3_BUCKET) return diskStore(path.resolve(config.UPLOADS_DIR));
  return s3Store({
    bucket: config.UPLOADS_S3_BUCKET,
    region: config.UPLOADS_S3_REGION,
    endpoint: config.UPLOADS_S3_ENDPOINT,
    forcePathStyle: config.UPLOADS_S3_FORCE_PATH_STYLE,
    accessKeyId: config.UPLOADS_S3_ACCESS_KEY_ID,
    secretAccessKey: config.UPLOADS_S3_SECRET_ACCESS_KEY,
  });
}

const notAnImage = (bytes: Buffer) =>
  new ApiError(
    415,
    'UNSUPPORTED_MEDIA_TYPE',
    looksLikeSvg(bytes) ? 'SVG images are not accepted' : 'The file is not a PNG, JPEG, GIF or WebP image',
    {
      suggestion: 'Upload a PNG, JPEG, GIF or WebP image; convert an SVG to PNG first.',
    },
  );

export interface StoredImage {
  key: string;
  url: string;
  contentType: string;
  size: number;
}

/**
 * Stores an image under a name made of the SHA-256 of its bytes and its format, so the same image always gets
 * the same URL, and a URL's content never changes (GET /uploads/{key} can be cached for good).
 */
export async function storeImage(store: ImageStore, config: Config, bytes: Buffer): Promise<StoredImage> {
  const extension = sniffImage(bytes);
  if (!extension) throw notAnImage(bytes);
  const key = `${createHash('sha256').update(bytes).digest('hex')}.${extension}`;
  const contentType = IMAGE_TYPES[extension];
  await store.put(key, bytes, contentType);
  return { key, url: new URL(`/uploads/${key}`, config.PUBLIC_URL).toString(), contentType, size: bytes.length };
}
