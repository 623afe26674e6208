import { execFile } from 'node:child_process';
import { mkdtemp, rm, symlink } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { root, tsx } from '../../scripts/lib/paths';

const run = promisify(execFile);

/** A copy of the project's code, to run processes from: this checkout, or the code of a git revision. */
export interface CodeTree {
  /** What it is, for the report: `this checkout` or the revision's short hash and subject. */
  label: string;
  dir: string;
  /** Writes the tree's workflow bundle into `file` (as npm start does before it starts the worker). */
  bundle(file: string): Promise<void>;
  remove(): Promise<void>;
}

const bundler = (dir: string) => async (file: string) =>
  void (await run(tsx, [path.join(dir, 'src', 'main', 'bundle-workflows.ts'), file], { cwd: dir }));

export const thisCheckout = (): CodeTree => ({ label: 'this checkout', dir: root, bundle: bundler(root), remove: async () => undefined });

/**
 * The code of `revision` (`git archive`, which changes nothing in the repository), in a temporary folder that
 * shares this checkout's node_modules: for a before-and-after comparison in one run of a benchmark. Its
 * migrations are not run; the database has this checkout's, which only ever add.
 */
export async function treeAt(revision: string): Promise<CodeTree> {
  const { stdout } = await run('git', ['-C', root, 'log', '-1', '--format=%h %s', revision]);
  const dir = await mkdtemp(path.join(os.tmpdir(), 'postwire-code-'));
  await run('bash', ['-c', `git -C "${root}" archive --format=tar "${revision}" | tar -x -C "${dir}"`]);
  await symlink(path.join(root, 'node_modules'), path.join(dir, 'node_modules'));
  return {
    label: stdout.trim().slice(0, 80),
    dir,
    bundle: bundler(dir),
    remove: () => rm(dir, { recursive: true, force: true }),
  };
}
