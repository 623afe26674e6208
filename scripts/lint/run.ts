/**
 * `npm run lint`: the checks that keep the shape, each run to the end so one report shows every kind of finding.
 * oxlint (with type-aware rules through oxlint-tsgolint) checks the code; dependency-cruiser checks file cycles
 * and the layer rules of .dependency-cruiser.cjs; folder-cycles.ts checks cycles between folders; prettier checks
 * the formatting (`npm run format` writes it).
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { root } from '../lib/paths';

const bin = path.join(root, 'node_modules', '.bin');
const TREES = ['src', 'workflows', 'activities'];
const LINTS: Array<{ name: string; bin: string; args: string[] }> = [
  { name: 'oxlint', bin: 'oxlint', args: ['--type-aware', '--quiet', ...TREES, 'test', 'scripts', 'bench'] },
  { name: 'layers', bin: 'depcruise', args: ['--config', '.dependency-cruiser.cjs', '--output-type', 'err', ...TREES] },
  { name: 'folder cycles', bin: 'tsx', args: [path.join('scripts', 'lint', 'folder-cycles.ts')] },
  { name: 'format', bin: 'prettier', args: ['--check', '--log-level', 'warn', '.'] },
];

// The tools need the node this project pins (node_modules/.bin/node), whatever node started this script.
const env = { ...process.env, PATH: `${bin}${path.delimiter}${process.env.PATH ?? ''}` };
const failed = LINTS.filter((lint) => {
  console.log(`[lint] ${lint.name}`);
  return spawnSync(path.join(bin, lint.bin), lint.args, { cwd: root, env, stdio: 'inherit' }).status !== 0;
});
if (failed.length > 0) {
  console.log(`[lint] failed: ${failed.map((lint) => lint.name).join(', ')}`);
  process.exitCode = 1;
}
