import { createReadStream } from 'node:fs';
import { mkdir, rename, stat, writeFile } from 'node:fs/promises';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import type { ImageStore } from './store';

/**
 * Images as files under one folder, in subfolders by the first two characters of the key so that no folder
 * grows too large. A file appears whole or not at all: it is written aside and renamed into place.
 */
export function diskStore(root: string): ImageStore {
  const pathOf = (key: string) => path.join(root, key.slice(0, 2), key);
  return {
    async put(key, bytes) {
      const target = pathOf(key);
      await mkdir(path.dirname(target), { recursive: true });
      const partial = `${target}.${randomUUID()}.partial`;
      await writeFile(partial, bytes);
      await rename(partial, target);
    },
    async get(key) {
      const file = pathOf(key);
      const found = await stat(file).catch((err: NodeJS.ErrnoException) => {
        if (err.code === 'ENOENT') return null;
        throw err;
      });
      return found ? { body: createReadStream(file), size: found.size } : null;
    },
  };
}
