import fs from 'node:fs';
import path from 'node:path';
import { dataDir } from './paths';

/** Serialises service start-up between concurrent `npm start` / `npm test` runs. */
export async function withLock<T>(name: string, fn: () => Promise<T>): Promise<T> {
  fs.mkdirSync(dataDir, { recursive: true });
  const dir = path.join(dataDir, `${name}.lock`);
  const deadline = Date.now() + 120_000;
  for (;;) {
    try {
      fs.mkdirSync(dir);
      break;
    } catch {
      const age = Date.now() - fs.statSync(dir, { throwIfNoEntry: false })!.mtimeMs;
      if (age > 120_000 || Date.now() > deadline) fs.rmSync(dir, { recursive: true, force: true });
      else await new Promise((r) => setTimeout(r, 250));
    }
  }
  try {
    return await fn();
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
