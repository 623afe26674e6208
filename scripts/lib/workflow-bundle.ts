import fs from 'node:fs';
import path from 'node:path';
import { dataDir, root } from './paths';
import { digestOf, filesUnder } from './digest';

/** Everything a bundle can be made of: the workflows, the server's src modules they import, the locked packages. */
const inputs = () => [
  ...filesUnder(path.join(root, 'workflows')),
  ...filesUnder(path.join(root, 'src'), [path.join(root, 'src', 'dashboard')]),
  path.join(root, 'package-lock.json'),
];

/**
 * The worker's workflow bundle for `npm start`, named by a digest of its inputs: built when the code changed
 * (a second or two), reused as it is otherwise; older bundles are removed.
 */
export async function ensureWorkflowBundle(log: (line: string) => void): Promise<string> {
  const dir = path.join(dataDir, 'workflow-bundle');
  const name = `${digestOf(inputs())}.js`;
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
