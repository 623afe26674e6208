import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { dataDir, root } from './paths';

/** Everything a bundle can be made of: the workflows, the src modules they import, the locked packages. */
function inputs(): string[] {
  const walk = (dir: string): string[] =>
    fs
      .readdirSync(dir, { withFileTypes: true })
      .flatMap((e) => (e.isDirectory() ? walk(path.join(dir, e.name)) : [path.join(dir, e.name)]));
  return [...walk(path.join(root, 'workflows')), ...walk(path.join(root, 'src')), path.join(root, 'package-lock.json')].sort();
}

/**
 * The worker's workflow bundle for `npm start`, named by a digest of its inputs: built when the code changed
 * (a second or two), reused as it is otherwise; older bundles are removed.
 */
export async function ensureWorkflowBundle(log: (line: string) => void): Promise<string> {
  const hash = createHash('sha256');
  for (const file of inputs()) hash.update(path.relative(root, file)).update('\0').update(fs.readFileSync(file));
  const dir = path.join(dataDir, 'workflow-bundle');
  const name = `${hash.digest('hex').slice(0, 16)}.js`;
  const file = path.join(dir, name);
  if (fs.existsSync(file)) return file;
  fs.mkdirSync(dir, { recursive: true });
  const started = Date.now();
  // Loaded only when a bundle is due: the SDK's bundler takes a while to load.
  const { writeWorkflowBundle } = await import('../../src/temporal/workflow-bundle.js');
  await writeWorkflowBundle(file);
  log(`[postwire] workflow bundle built in ${((Date.now() - started) / 1000).toFixed(1)}s: ${path.relative(root, file)}`);
  for (const old of fs.readdirSync(dir)) if (old !== name && old.endsWith('.js')) fs.rmSync(path.join(dir, old), { force: true });
  return file;
}
