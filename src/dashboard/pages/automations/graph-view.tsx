import type { Exit, TreeNode } from './graph';
import { configOf, type StepFigures, type StepType } from './types';
import { summary } from './draft';

export type Selection = { kind: 'step'; stepId: string } | { kind: 'add'; at: Exit | null } | null;

interface ViewProps {
  selection: Selection;
  onSelect: (selection: Selection) => void;
  templateName: (id: string) => string | undefined;
  /** What the step's executions came to (GET /workflows/{id}/stats), when any ran. */
  figures: (stepId: string) => StepFigures | undefined;
  /** False while the workflow is enabled: the API refuses new steps then. */
  editable: boolean;
}

const SHORT: Record<StepType, string> = {
  SEND_EMAIL: 'Send email',
  DELAY: 'Delay',
  WAIT_FOR_EVENT: 'Wait for event',
  CONDITION: 'Condition',
  WEBHOOK: 'Webhook',
  UPDATE_CONTACT: 'Update contact',
  EXIT: 'Exit',
  RANDOM_SPLIT: 'Random split',
};

const sameExit = (a: Exit | null, b: Exit) => a !== null && a.from.id === b.from.id && JSON.stringify(a.slot) === JSON.stringify(b.slot);

function AddButton({ at, props }: { at: Exit; props: ViewProps }) {
  if (!props.editable) return null;
  const from = at.from.name ?? SHORT[at.from.type];
  const selected = props.selection?.kind === 'add' && sameExit(props.selection.at, at);
  return (
    <button
      type="button"
      class={`flow-add${selected ? ' selected' : ''}`}
      aria-label={at.label ? `Add a step on the ${at.label} branch of ${from}` : `Add a step after ${from}`}
      aria-pressed={selected}
      onClick={() => props.onSelect({ kind: 'add', at })}
    >
      +
    </button>
  );
}

/** The colour of a way out: yes and event, no and timeout; a split's branches are all alike. */
const labelClass = (exit: Exit) =>
  exit.slot.kind === 'outcome'
    ? exit.slot.outcome.toLowerCase()
    : exit.slot.kind === 'branch' && exit.from.type === 'CONDITION'
      ? exit.slot.branch
      : 'split';

/** How many executions left the step by this way (a branch or an outcome), and reached the goal after, when figures are shown. */
function takenBy(exit: Exit, figures: StepFigures | undefined): { taken: number; goalReached: number } | undefined {
  const { slot } = exit;
  if (slot.kind === 'branch') return figures?.branches?.find((b) => b.branch === slot.branch);
  if (slot.kind === 'outcome') return figures?.outcomes?.find((o) => o.outcome === slot.outcome);
  return undefined;
}

/** The step's figures in words: entered, waiting, left, and converted, failed or cancelled and the goal reached when any. */
function figuresText(f: StepFigures): string {
  const parts = [`${f.entered} entered`, `${f.waiting} waiting`, `${f.left} left`];
  if (f.converted) parts.push(`${f.converted} converted here`);
  if (f.failed) parts.push(`${f.failed} failed`);
  if (f.cancelled) parts.push(`${f.cancelled} cancelled`);
  if (f.goalReached) parts.push(`${f.goalReached} reached the goal`);
  return parts.join(' · ');
}

function ExitView({ exit, props }: { exit: Exit; props: ViewProps }) {
  const taken = takenBy(exit, props.figures(exit.from.id));
  return (
    <div class="flow-exit">
      {exit.label ? <span class={`flow-label flow-label-${labelClass(exit)}`}>{exit.label}</span> : null}
      {taken === undefined ? null : (
        <span class="flow-taken">
          {taken.taken} took it{taken.goalReached ? ` · ${taken.goalReached} reached the goal` : ''}
        </span>
      )}
      <span class="flow-line" aria-hidden="true" />
      <AddButton at={exit} props={props} />
      {exit.child || exit.ref ? <span class="flow-line flow-arrow" aria-hidden="true" /> : null}
      {exit.child ? <NodeView node={exit.child} props={props} /> : null}
      {exit.ref ? <p class="flow-ref">then “{exit.ref.name ?? SHORT[exit.ref.type]}”</p> : null}
      {!exit.child && !exit.ref ? <span class="flow-end">end</span> : null}
    </div>
  );
}

function NodeView({ node, props }: { node: TreeNode; props: ViewProps }) {
  const { step } = node;
  const selected = props.selection?.kind === 'step' && props.selection.stepId === step.id;
  const detail = summary(step.type, configOf(step), props.templateName);
  const figures = props.figures(step.id);
  return (
    <div class="flow-step">
      <button
        type="button"
        class={`flow-node flow-node-${step.type.toLowerCase()}${selected ? ' selected' : ''}`}
        aria-pressed={selected}
        onClick={() => props.onSelect({ kind: 'step', stepId: step.id })}
      >
        <span class="flow-type">{SHORT[step.type]}</span>
        {step.name ? <strong class="flow-name">{step.name}</strong> : null}
        {detail ? <span class="flow-detail">{detail}</span> : null}
      </button>
      {figures ? <p class="flow-figures">{figuresText(figures)}</p> : null}
      {node.exits.length === 0 ? null : node.exits.length === 1 ? (
        <ExitView exit={node.exits[0]!} props={props} />
      ) : (
        <div class="flow-branches">
          {node.exits.map((exit) => (
            <ExitView key={exit.label} exit={exit} props={props} />
          ))}
        </div>
      )}
    </div>
  );
}

/**
 * The automation drawn top to bottom: each step a button that opens its settings; CONDITION branches (yes, no)
 * and WAIT_FOR_EVENT outcomes (event, timeout) side by side; a + on every way out adds a step there.
 */
export function GraphView({ trees, trigger, ...props }: ViewProps & { trees: TreeNode[]; trigger: string }) {
  return (
    <div class="flow" role="group" aria-label="Steps of the automation">
      <div class="flow-trigger">{trigger}</div>
      <span class="flow-line flow-arrow" aria-hidden="true" />
      {trees.length === 0 ? (
        props.editable ? (
          <button
            type="button"
            class={`flow-add flow-add-first${props.selection?.kind === 'add' && !props.selection.at ? ' selected' : ''}`}
            onClick={() => props.onSelect({ kind: 'add', at: null })}
          >
            Add the first step
          </button>
        ) : (
          <p class="muted">No steps yet.</p>
        )
      ) : (
        <div class="flow-roots">
          {trees.length > 1 ? (
            <p class="flow-warning" role="note">
              {trees.length} steps have nothing leading to them: an automation starts at one step, so it cannot be enabled like this.
            </p>
          ) : null}
          <div class="flow-branches">
            {trees.map((tree) => (
              <NodeView key={tree.step.id} node={tree} props={props} />
            ))}
          </div>
        </div>
      )}
    </div>
  );
}
