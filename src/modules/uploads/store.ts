import type { Readable } from 'node:stream';

/** Where uploaded images live: a folder (disk-store.ts) or an S3-compatible bucket (s3-store.ts). */
export interface ImageStore {
  /** Stores the bytes under the key. Keys are content hashes, so writing a key twice writes the same bytes. */
  put(key: string, bytes: Buffer, contentType: string): Promise<void>;
  /** The stored bytes, or null when there is no such key. */
  get(key: string): Promise<{ body: Readable; size: number | null } | null>;
}
