import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { root } from './paths';

/** Every file under `dir`, except under the folders named in `skip`. */
export function filesUnder(dir: string, skip: readonly string[] = []): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (!e.isDirectory()) return [full];
    return skip.includes(full) ? [] : filesUnder(full, skip);
  });
}

/** A short digest of files' names and contents: what a build made of them is named by, to be reused until they change. */
export function digestOf(files: readonly string[]): string {
  const hash = createHash('sha256');
  for (const file of [...files].sort()) hash.update(path.relative(root, file)).update('\0').update(fs.readFileSync(file));
  return hash.digest('hex').slice(0, 16);
}
