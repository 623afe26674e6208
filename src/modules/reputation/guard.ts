import type { Deps } from '../../deps';
import { wakeHeldAutomation } from '../../temporal/automation';
import { judgeableProjects, reputationOf, type ReputationFigures } from './figures';
import { recordWarning, sendNotices } from './notices';
import { reinstateProject, suspendProject, type Reinstatement } from './suspension';
import { verdictOf } from './verdict';

/**
 * The guardrails at work (docs/security.md): the check that runs when a bounce or complaint is recorded and
 * every 5 minutes, and the operators' suspensions and reinstatements. Each decision commits first; the owners'
 * emails and the wake-up of waiting automation executions follow it, and what cannot be done then is left to
 * the sweep (emails) or to the executions' own recheck (HOLD_RECHECK).
 */

type CheckDeps = Pick<Deps, 'orm' | 'config' | 'mailer' | 'logger'>;

export type CheckOutcome = 'none' | 'warned' | 'suspended';

/** Acts on a project's figures: suspends it at the critical level, warns its owners (once a day) at the warning level. */
async function act(deps: CheckDeps, figures: ReputationFigures): Promise<CheckOutcome> {
  const verdict = verdictOf(figures, deps.config.REPUTATION_MIN_SENT);
  const em = deps.orm.em.fork();
  // Once enough was sent since a reinstatement, the grace is over: the figures stop counting from it.
  if (figures.sentSinceReinstatement !== null && figures.sentSinceReinstatement >= deps.config.REPUTATION_MIN_SENT) {
    await em.execute(`update projects set "reputation_grace_hour" = null where "id" = ?`, [figures.projectId]);
  }
  if (verdict.action === 'suspend') {
    const outcome = await suspendProject(em, figures.projectId, verdict.reason, 'automatic');
    if (outcome === 'suspended')
      deps.logger.warn({ projectId: figures.projectId, reason: verdict.reason }, 'project suspended automatically');
    return outcome === 'suspended' ? 'suspended' : 'none';
  }
  if (verdict.action === 'warn')
    return (await em.transactional((tx) => recordWarning(tx, figures.projectId, verdict.reason))) ? 'warned' : 'none';
  return 'none';
}

/** Judges one project now and emails its owners what that decided. */
export async function checkProject(deps: CheckDeps, projectId: string): Promise<CheckOutcome> {
  const figures = await reputationOf(deps.orm.em.fork(), deps.config, projectId);
  if (!figures) return 'none';
  const outcome = await act(deps, figures);
  if (outcome !== 'none') await sendNotices(deps, projectId);
  return outcome;
}

/**
 * After a bounce or complaint of the project was recorded (by SNS feedback or the sandbox's simulator). It
 * never fails its caller, whose record is committed: a check that could not run is the sweep's to make.
 */
export async function checkAfterFeedback(deps: CheckDeps, projectId: string): Promise<void> {
  try {
    await checkProject(deps, projectId);
  } catch (err) {
    deps.logger.warn({ err, projectId }, 'reputation check after a bounce or complaint failed; the periodic sweep makes it');
  }
}

/** Every 5 minutes in each worker (src/main/housekeeping.ts): judges every project that sent enough, then sends the notices left. */
export async function sweepReputation(deps: CheckDeps): Promise<{ suspended: number; warned: number; notices: number }> {
  let suspended = 0;
  let warned = 0;
  for (const figures of await judgeableProjects(deps.orm.em.fork(), deps.config)) {
    const outcome = await act(deps, figures);
    if (outcome === 'suspended') suspended++;
    if (outcome === 'warned') warned++;
  }
  return { suspended, warned, notices: await sendNotices(deps) };
}

type OperatorDeps = CheckDeps & Pick<Deps, 'temporal'>;

/** An operator's suspension (docs/operators.md). */
export async function suspendByOperator(deps: OperatorDeps, projectId: string, reason: string) {
  const outcome = await suspendProject(deps.orm.em.fork(), projectId, reason, 'operator');
  if (outcome === 'suspended') await sendNotices(deps, projectId);
  return outcome;
}

/** Wakes the executions that waited; one that is not reached now asks again on its own within HOLD_RECHECK. */
async function wake(deps: OperatorDeps, workflowIds: string[]): Promise<void> {
  const results = await Promise.allSettled(workflowIds.map((id) => wakeHeldAutomation(deps.temporal, id)));
  const failed = results.filter((r) => r.status === 'rejected').length;
  if (failed > 0) deps.logger.warn({ failed, of: workflowIds.length }, 'could not wake automation executions after a reinstatement');
}

/** An operator's reinstatement: the held emails go, waiting executions go on, the owners are told. */
export async function reinstateByOperator(deps: OperatorDeps, projectId: string, reason: string | null): Promise<Reinstatement['outcome']> {
  const { outcome, waiting } = await reinstateProject(deps.orm.em.fork(), deps.config, projectId, reason);
  if (outcome === 'reinstated') await Promise.all([sendNotices(deps, projectId), wake(deps, waiting)]);
  return outcome;
}
