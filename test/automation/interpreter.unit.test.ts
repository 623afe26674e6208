import type { Definition, StepSnapshot, TransitionSnapshot } from '../../workflows/automation/definition';
import { firstStep, type Next } from '../../workflows/automation/entry';
import { firstStop, nextStep } from '../../workflows/automation/interpreter';
import { delayMs } from '../../workflows/automation/definition';
import { graphProblems, transitionProblem, type GraphEdge } from '../../workflows/automation/graph';
import { describeStep, stepSummary } from '../../workflows/automation/describe';

const step = (id: string, type: StepSnapshot['type'], config: object = {}, name: string | null = null) =>
  ({ id, name, type, config }) as StepSnapshot;
const edge = (fromStepId: string, toStepId: string, extra: Partial<TransitionSnapshot> = {}): TransitionSnapshot => ({
  fromStepId,
  toStepId,
  branch: null,
  outcome: null,
  ...extra,
});
const stepId = (next: Next) => (next.kind === 'step' ? next.step.id : next.status);

/**
 * welcome → wait(paid, 2 days) ─EVENT→ check ─yes→ thanks
 *                              │              └no→ bye (EXIT)
 *                              └TIMEOUT→ nudge (no transition: completes)
 */
const definition: Definition = {
  name: 'Welcome series',
  steps: [
    step('welcome', 'SEND_EMAIL', { templateId: 't1' }),
    step('wait', 'WAIT_FOR_EVENT', { eventName: 'paid', timeout: 172_800 }),
    step('check', 'CONDITION', { logic: 'AND', groups: [{ filters: [{ field: 'data.plan', operator: 'equals', value: 'pro' }] }] }),
    step('thanks', 'SEND_EMAIL', { templateId: 't2' }),
    step('bye', 'EXIT', { reason: 'not a pro' }),
    step('nudge', 'WEBHOOK', { url: 'https://example.test/hook', method: 'POST' }),
  ],
  transitions: [
    edge('welcome', 'wait'),
    edge('wait', 'check', { outcome: 'EVENT' }),
    edge('wait', 'nudge', { outcome: 'TIMEOUT' }),
    edge('check', 'thanks', { branch: 'yes' }),
    edge('check', 'bye', { branch: 'no' }),
  ],
};
const at = (id: string) => definition.steps.find((s) => s.id === id)!;

describe('step interpreter', () => {
  it('starts at the one step no transition enters', () => {
    expect(stepId(firstStep(definition))).toBe('welcome');
  });

  it('completes at once a definition without steps', () => {
    expect(firstStep({ name: 'x', steps: [], transitions: [] })).toEqual({ kind: 'end', status: 'COMPLETED' });
  });

  it('follows the single transition of a plain step', () => {
    expect(stepId(nextStep(definition, at('welcome'), { kind: 'done' }))).toBe('wait');
  });

  it('follows EVENT or TIMEOUT out of WAIT_FOR_EVENT', () => {
    expect(stepId(nextStep(definition, at('wait'), { kind: 'event' }))).toBe('check');
    expect(stepId(nextStep(definition, at('wait'), { kind: 'timeout' }))).toBe('nudge');
  });

  it('follows the yes or no branch out of CONDITION', () => {
    expect(stepId(nextStep(definition, at('check'), { kind: 'branch', branch: 'yes' }))).toBe('thanks');
    expect(stepId(nextStep(definition, at('check'), { kind: 'branch', branch: 'no' }))).toBe('bye');
  });

  it('completes at a step with no matching transition', () => {
    expect(nextStep(definition, at('thanks'), { kind: 'done' })).toEqual({ kind: 'end', status: 'COMPLETED' });
    expect(nextStep(definition, at('nudge'), { kind: 'done' })).toEqual({ kind: 'end', status: 'COMPLETED' });
    const noTimeoutPath = { ...definition, transitions: definition.transitions.filter((t) => t.outcome !== 'TIMEOUT') };
    expect(nextStep(noTimeoutPath, at('wait'), { kind: 'timeout' })).toEqual({ kind: 'end', status: 'COMPLETED' });
  });

  it('exits at an EXIT step with its reason, or one naming the step', () => {
    expect(nextStep(definition, at('bye'), { kind: 'done' })).toEqual({ kind: 'end', status: 'EXITED', reason: 'not a pro' });
    const bare = step('x', 'EXIT', {}, 'Stop');
    expect(nextStep({ ...definition, steps: [bare] }, bare, { kind: 'done' })).toEqual({
      kind: 'end',
      status: 'EXITED',
      reason: 'Reached EXIT step Stop',
    });
  });

  it('finds where an execution first stops when the quick steps before it can only finish, else its entry step', () => {
    expect(firstStop(definition)).toBe('wait');
    const quick = {
      name: 'x',
      steps: [step('a', 'UPDATE_CONTACT'), step('b', 'SEND_EMAIL', { templateId: 't1' })],
      transitions: [edge('a', 'b')],
    };
    expect(firstStop(quick)).toBe('a');
    const branching = {
      name: 'x',
      steps: [at('check'), step('later', 'DELAY', { amount: 1, unit: 'days' })],
      transitions: [edge('check', 'later', { branch: 'yes' })],
    };
    expect(firstStop(branching)).toBe('check');
    expect(firstStop({ name: 'x', steps: [], transitions: [] })).toBeNull();
  });

  it('refuses a result that the step type cannot come to', () => {
    expect(() => nextStep(definition, at('check'), { kind: 'done' })).toThrow('a CONDITION step cannot come to done');
    expect(() => nextStep(definition, at('welcome'), { kind: 'event' })).toThrow('a SEND_EMAIL step cannot come to event');
  });

  it('turns DELAY configs into milliseconds', () => {
    expect(delayMs({ amount: 3, unit: 'days' })).toBe(3 * 86_400_000);
    expect(delayMs({ amount: 90, unit: 'minutes' })).toBe(5_400_000);
    expect(delayMs({ amount: 1.5, unit: 'hours' })).toBe(5_400_000);
  });

  it('describes steps for Temporal summaries', () => {
    expect(stepSummary('Welcome series', 3, step('d', 'DELAY', { amount: 2, unit: 'days' }))).toBe('Welcome series: step 3, DELAY 2 days');
    expect(describeStep(step('d', 'DELAY', { amount: 1, unit: 'hours' }))).toBe('DELAY 1 hour');
    expect(describeStep(at('wait'))).toBe('WAIT_FOR_EVENT paid (timeout 2 days)');
    expect(describeStep(step('w', 'WAIT_FOR_EVENT', { eventName: 'x', timeout: 90 }, 'Nudge'))).toBe(
      '"Nudge" WAIT_FOR_EVENT x (timeout 90 seconds)',
    );
  });
});

describe('graph rules', () => {
  const steps = definition.steps;
  const edges = definition.transitions;
  const problem = (e: GraphEdge, on: GraphEdge[] = edges) => transitionProblem(steps, on, e)?.message ?? null;

  it('accepts the example graph', () => {
    expect(graphProblems(steps, edges)).toEqual([]);
  });

  it('allows branch only from CONDITION and requires it there', () => {
    expect(problem({ fromStepId: 'welcome', toStepId: 'nudge', branch: 'yes' })).toMatch(
      /branch is only for transitions leaving a CONDITION or RANDOM_SPLIT step/,
    );
    expect(problem({ fromStepId: 'check', toStepId: 'nudge' }, [])).toMatch(/needs one of its branches: "yes", "no"/);
  });

  it('allows outcome only from WAIT_FOR_EVENT, and TIMEOUT only with a timeout', () => {
    expect(problem({ fromStepId: 'check', toStepId: 'nudge', branch: 'yes', outcome: 'EVENT' }, [])).toMatch(/outcome is only for/);
    const noTimeout = [step('w', 'WAIT_FOR_EVENT', { eventName: 'x' }), step('n', 'EXIT')];
    expect(transitionProblem(noTimeout, [], { fromStepId: 'w', toStepId: 'n', outcome: 'TIMEOUT' })?.message).toMatch(/needs a timeout/);
    expect(transitionProblem(noTimeout, [], { fromStepId: 'w', toStepId: 'n', outcome: 'EVENT' })).toBeNull();
  });

  it('allows one transition per exit: one for plain steps, one per branch or outcome', () => {
    expect(problem({ fromStepId: 'welcome', toStepId: 'nudge' })).toMatch(/already has its outgoing transition/);
    expect(problem({ fromStepId: 'check', toStepId: 'nudge', branch: 'yes' })).toMatch(/already has its branch "yes"/);
    expect(problem({ fromStepId: 'wait', toStepId: 'thanks', outcome: 'TIMEOUT' })).toMatch(/already has its outcome TIMEOUT/);
  });

  it('refuses cycles, self-loops and transitions out of EXIT', () => {
    expect(problem({ fromStepId: 'thanks', toStepId: 'welcome' })).toMatch(/cycle/);
    expect(problem({ fromStepId: 'nudge', toStepId: 'nudge' })).toMatch(/cycle/);
    expect(problem({ fromStepId: 'bye', toStepId: 'nudge' })).toMatch(/EXIT step ends the execution/);
  });

  it('refuses unknown steps', () => {
    expect(problem({ fromStepId: 'nope', toStepId: 'nudge' })).toMatch(/fromStepId is not a step/);
    expect(problem({ fromStepId: 'thanks', toStepId: 'nope' })).toMatch(/toStepId is not a step/);
  });

  it('requires exactly one entry step and some steps', () => {
    expect(graphProblems([], [])).toEqual([{ field: 'steps', message: 'The workflow has no steps' }]);
    const twoRoots = graphProblems(steps, edges.slice(1));
    expect(twoRoots).toEqual([
      expect.objectContaining({ field: 'transitions', message: expect.stringMatching(/exactly one entry step.*it has 2: welcome, wait/) }),
    ]);
    const cyclic = graphProblems([step('a', 'DELAY'), step('b', 'DELAY')], [edge('a', 'b'), edge('b', 'a')]);
    expect(cyclic.map((p) => p.message)).toEqual([expect.stringMatching(/no entry step/), expect.stringMatching(/cycle/)]);
  });
});
