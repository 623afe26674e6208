import { randomUUID } from 'node:crypto';
import { splitBranch } from '../../src/modules/automations/run/random-split';
import { configProblem, transitionProblem, type GraphStep } from '../../workflows/automation/graph';
import type { RandomSplitConfig } from '../../workflows/automation/definition';

const ids = (n: number) => Array.from({ length: n }, () => randomUUID());

/** How many of `contacts` take each branch of the step. */
function tally(config: RandomSplitConfig, stepId: string, contacts: string[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const id of contacts) {
    const branch = splitBranch(config, stepId, id);
    counts[branch] = (counts[branch] ?? 0) + 1;
  }
  return counts;
}

/**
 * Pearson's chi-squared statistic of the counts against the weights. Fresh random ids each run, so the bound is
 * the 99.99th percentile of the distribution (4 degrees of freedom: 23.5): a fair split fails once in 10,000 runs,
 * a split off by a few points of share fails nearly always at 1,000 contacts.
 */
function chiSquared(config: RandomSplitConfig, counts: Record<string, number>, n: number): number {
  const total = config.branches.reduce((s, b) => s + b.weight, 0);
  return config.branches.reduce((sum, b, i) => {
    const expected = (n * b.weight) / total;
    const seen = counts['ABCDE'[i]!] ?? 0;
    return sum + (seen - expected) ** 2 / expected;
  }, 0);
}

describe('RANDOM_SPLIT decision', () => {
  const fiveWays: RandomSplitConfig = { branches: [{ weight: 10 }, { weight: 20 }, { weight: 30 }, { weight: 25 }, { weight: 15 }] };

  it('shares 1,000 contacts by weight, within statistical bounds', () => {
    const contacts = ids(1000);
    const counts = tally(fiveWays, randomUUID(), contacts);
    expect(Object.keys(counts).sort()).toEqual(['A', 'B', 'C', 'D', 'E']);
    expect(chiSquared(fiveWays, counts, contacts.length)).toBeLessThan(23.5);
    const even: RandomSplitConfig = { branches: [{ weight: 1 }, { weight: 1 }] };
    const halves = tally(even, randomUUID(), contacts);
    // Binomial(1000, 0.5): 4.4 standard deviations either side.
    expect(halves.A).toBeGreaterThan(430);
    expect(halves.A).toBeLessThan(570);
  });

  it('gives a contact the same branch of the same step every time, and splits different steps independently', () => {
    const contacts = ids(1000);
    const [one, two] = [randomUUID(), randomUUID()];
    const first = contacts.map((c) => splitBranch(fiveWays, one, c));
    expect(contacts.map((c) => splitBranch(fiveWays, one, c))).toEqual(first);
    const even: RandomSplitConfig = { branches: [{ weight: 1 }, { weight: 1 }] };
    // Independent steps: A at the first step says nothing of the second (each quarter about 250).
    const quarters: Record<string, number> = {};
    for (const c of contacts) {
      const key = splitBranch(even, one, c) + splitBranch(even, two, c);
      quarters[key] = (quarters[key] ?? 0) + 1;
    }
    for (const key of ['AA', 'AB', 'BA', 'BB']) {
      // Binomial(1000, 0.25): about 4.4 standard deviations either side.
      expect(quarters[key]).toBeGreaterThan(190);
      expect(quarters[key]).toBeLessThan(310);
    }
  });

  it('follows lopsided weights: 1,000 to 1 sends nearly everyone down A', () => {
    const lopsided: RandomSplitConfig = { branches: [{ weight: 1000 }, { weight: 1 }] };
    const counts = tally(lopsided, randomUUID(), ids(1000));
    expect(counts.A).toBeGreaterThan(980);
  });
});

describe('RANDOM_SPLIT graph rules', () => {
  const split: GraphStep = { id: 's', type: 'RANDOM_SPLIT', config: { branches: [{ weight: 1 }, { weight: 1 }, { weight: 1 }] } };
  const steps: GraphStep[] = [split, { id: 'a', type: 'EXIT', config: {} }, { id: 'b', type: 'EXIT', config: {} }];

  it('takes transitions on its branches only, each once', () => {
    expect(transitionProblem(steps, [], { fromStepId: 's', toStepId: 'a', branch: 'C' })).toBeNull();
    expect(transitionProblem(steps, [], { fromStepId: 's', toStepId: 'a', branch: 'D' })?.field).toBe('branch');
    expect(transitionProblem(steps, [], { fromStepId: 's', toStepId: 'a', branch: 'yes' })?.message).toBe(
      'A transition leaving a RANDOM_SPLIT step needs one of its branches: "A", "B", "C"',
    );
    expect(transitionProblem(steps, [], { fromStepId: 's', toStepId: 'a' })?.field).toBe('branch');
    const taken = [{ fromStepId: 's', toStepId: 'a', branch: 'A' as const }];
    expect(transitionProblem(steps, taken, { fromStepId: 's', toStepId: 'b', branch: 'A' })?.field).toBe('fromStepId');
    expect(transitionProblem(steps, [], { fromStepId: 'a', toStepId: 'b', branch: 'A' })?.field).toBe('fromStepId');
  });

  it('keeps the branches its transitions leave by', () => {
    const edges = [{ fromStepId: 's', toStepId: 'a', branch: 'C' as const }];
    const twoWays = { ...split, config: { branches: [{ weight: 1 }, { weight: 1 }] } };
    expect(configProblem(twoWays, edges)).toEqual({
      field: 'config.branches',
      message: 'The step has a transition on branch "C"; delete that transition first',
    });
    expect(configProblem(split, edges)).toBeNull();
  });
});
