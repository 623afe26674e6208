import { splitsOf } from './draft';
import type { Branch, NewTransition, Step, Transition } from './types';

/** Where a transition leaves a step: its single way on, a CONDITION or RANDOM_SPLIT branch, or a WAIT_FOR_EVENT outcome. */
export type Slot = { kind: 'next' } | { kind: 'branch'; branch: Branch } | { kind: 'outcome'; outcome: 'EVENT' | 'TIMEOUT' };

export interface Exit {
  from: Step;
  slot: Slot;
  /** Shown beside the branch: "yes", "no", "A · 50%", "event", "timeout"; null for a single way on. */
  label: string | null;
  transition: Transition | null;
  /** The step it leads to, drawn below; or `ref` when that step is drawn elsewhere (graphs may join). */
  child: TreeNode | null;
  ref: Step | null;
}

export interface TreeNode {
  step: Step;
  exits: Exit[];
}

/**
 * The ways out of a step of its type: both branches of a CONDITION, each branch of a RANDOM_SPLIT with its share,
 * EVENT (and TIMEOUT with a timeout) of a wait.
 */
function slotsOf(step: Step, transitions: Transition[]): Array<{ slot: Slot; label: string | null }> {
  switch (step.type) {
    case 'EXIT':
      return [];
    case 'CONDITION':
      return [
        { slot: { kind: 'branch', branch: 'yes' }, label: 'yes' },
        { slot: { kind: 'branch', branch: 'no' }, label: 'no' },
      ];
    case 'RANDOM_SPLIT':
      return splitsOf(step.config as unknown as Record<string, unknown>).map(({ branch, share, label }) => ({
        slot: { kind: 'branch', branch },
        label: `${branch} · ${share}%${label ? ` ${label}` : ''}`,
      }));
    case 'WAIT_FOR_EVENT': {
      const hasTimeout =
        (step.config as { timeout?: number }).timeout !== undefined ||
        transitions.some((t) => t.fromStepId === step.id && t.outcome === 'TIMEOUT');
      return [
        { slot: { kind: 'outcome', outcome: 'EVENT' }, label: 'event' },
        ...(hasTimeout ? [{ slot: { kind: 'outcome', outcome: 'TIMEOUT' } as Slot, label: 'timeout' }] : []),
      ];
    }
    default:
      return [{ slot: { kind: 'next' }, label: null }];
  }
}

const fills = (t: Transition, slot: Slot) =>
  slot.kind === 'next' ? true : slot.kind === 'branch' ? t.branch === slot.branch : (t.outcome ?? 'EVENT') === slot.outcome;

/** The transition body that leaves from a step by a slot. */
export const transitionBody = (fromStepId: string, toStepId: string, slot: Slot): NewTransition => ({
  fromStepId,
  toStepId,
  ...(slot.kind === 'branch' ? { branch: slot.branch } : slot.kind === 'outcome' ? { outcome: slot.outcome } : {}),
});

/** The first way out of a new step, by which it joins the step that followed where it was inserted. */
export const firstSlot = (step: Pick<Step, 'type'>): Slot | null =>
  step.type === 'EXIT'
    ? null
    : step.type === 'CONDITION' || step.type === 'RANDOM_SPLIT'
      ? { kind: 'branch', branch: step.type === 'CONDITION' ? 'yes' : 'A' }
      : step.type === 'WAIT_FOR_EVENT'
        ? { kind: 'outcome', outcome: 'EVENT' }
        : { kind: 'next' };

/**
 * The graph as trees to draw top to bottom: from each entry step (no incoming transition), every step once;
 * a step reached a second time is shown as a reference. Steps no entry reaches (a cycle) start trees too.
 */
export function layout(steps: Step[], transitions: Transition[]): TreeNode[] {
  const byId = new Map(steps.map((s) => [s.id, s]));
  const placed = new Set<string>();
  const grow = (step: Step): TreeNode => {
    placed.add(step.id);
    const out = transitions.filter((t) => t.fromStepId === step.id);
    const exits = slotsOf(step, transitions).map(({ slot, label }): Exit => {
      const transition = out.find((t) => fills(t, slot)) ?? null;
      const to = transition ? byId.get(transition.toStepId) : undefined;
      if (!to) return { from: step, slot, label, transition, child: null, ref: null };
      if (placed.has(to.id)) return { from: step, slot, label, transition, child: null, ref: to };
      return { from: step, slot, label, transition, child: grow(to), ref: null };
    });
    return { step, exits };
  };
  const entered = new Set(transitions.map((t) => t.toStepId));
  const trees = steps.filter((s) => !entered.has(s.id)).map(grow);
  for (const step of steps) if (!placed.has(step.id)) trees.push(grow(step));
  return trees;
}

/** The steps drawn under a node (itself excluded), deepest first: what goes when it goes with its branches. */
export function below(node: TreeNode): Step[] {
  return node.exits.flatMap((e) => (e.child ? [...below(e.child), e.child.step] : []));
}

export const findNode = (trees: TreeNode[], stepId: string): TreeNode | null => {
  for (const tree of trees) {
    if (tree.step.id === stepId) return tree;
    const found = findNode(
      tree.exits.flatMap((e) => (e.child ? [e.child] : [])),
      stepId,
    );
    if (found) return found;
  }
  return null;
};
