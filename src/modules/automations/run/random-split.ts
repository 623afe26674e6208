import { createHash } from 'node:crypto';
import { SPLIT_BRANCHES, type RandomSplitConfig, type SplitBranch } from '../../../../workflows/automation/definition';

/**
 * RANDOM_SPLIT's decision (docs/automations.md "Split tests"): a hash of the step and the contact places the
 * contact at a point of [0, 1), and the branches share that interval by weight, in order. The same contact
 * thus takes the same branch of the same step in every run, retry and replay, and different steps split
 * independently. `key` is the contact's id (a simulation's contact that is not stored: its email).
 */
export function splitBranch(config: RandomSplitConfig, stepId: string, key: string): SplitBranch {
  const digest = createHash('sha256').update(`${stepId}\u0000${key}`).digest();
  // 48 bits of the digest: uniform enough for any weights the config allows (at most 5 × 1,000).
  const point = digest.readUIntBE(0, 6) / 2 ** 48;
  const total = config.branches.reduce((sum, b) => sum + b.weight, 0);
  let upTo = 0;
  for (const [i, branch] of config.branches.entries()) {
    upTo += branch.weight / total;
    if (point < upTo) return SPLIT_BRANCHES[i]!;
  }
  return SPLIT_BRANCHES[config.branches.length - 1]!;
}
