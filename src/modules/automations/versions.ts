import type { EntityManager } from '@mikro-orm/postgresql';
import type { Deps } from '../../deps';
import { conflict, notFound, validationError, type FieldError } from '../../http/errors';
import { offsetOf, pageOf } from '../../http/offset-page';
import { migrateAutomationRun } from '../../temporal/automation';
import { callTemporal } from '../../temporal/unavailable';
import { AutomationVersion } from './entities';
import type { ListVersionsQuery, MigrateBody, MigrateResponse, VersionPage } from './schemas';
import { findAutomation } from './service';

const ACTIVE_BY_VERSION = `
select ("definition" ->> 'version')::int as "version", count(*) filter (where "status" = 'RUNNING')::int as "running",
  count(*) filter (where "status" = 'WAITING')::int as "waiting"
from automation_executions where "automation_id" = ? and "status" in ('RUNNING', 'WAITING') and "definition" ->> 'version' is not null
group by 1`;

/** GET /workflows/{id}/versions: newest first, each with its graph and the executions active on it. */
export async function listVersions(
  em: EntityManager,
  projectId: string,
  automationId: string,
  query: ListVersionsQuery,
): Promise<VersionPage> {
  const automation = await findAutomation(em, projectId, automationId);
  const [[rows, total], active] = await Promise.all([
    em.findAndCount(AutomationVersion, { automationId }, { orderBy: { number: 'desc' }, limit: query.pageSize, offset: offsetOf(query) }),
    em.execute<Array<{ version: number; running: number; waiting: number }>>(ACTIVE_BY_VERSION, [automationId]),
  ]);
  const counts = new Map(active.map((a) => [a.version, a]));
  const data = rows.map((v) => ({
    number: v.number,
    latest: v.number === automation.version,
    createdAt: v.createdAt.toISOString(),
    running: counts.get(v.number)?.running ?? 0,
    waiting: counts.get(v.number)?.waiting ?? 0,
    steps: v.graph.steps,
    transitions: v.graph.transitions,
  }));
  return pageOf(data, total, query);
}

const OF_VERSION = `
select "id", "status", "current_step_id", "temporal_workflow_id" from automation_executions
where "automation_id" = ? and "status" in ('RUNNING', 'WAITING') and ("definition" ->> 'version')::int = ?`;

/** Signals sent at once while migrating; each is a round trip to Temporal. */
const SIGNALS_AT_ONCE = 16;

/**
 * POST /workflows/{id}/versions/{v}/migrate: signals each execution of version v that waits at a step of the map
 * to move to the latest version at the step the map names (docs/automations.md "Versions"); the others are
 * counted as skipped. 404 for an unknown version, 409 when v is the latest, 422 for a map naming a step that is
 * not in v (a key) or not in the latest version (a value); nothing is signalled then.
 */
export async function migrateVersion(
  deps: Deps,
  em: EntityManager,
  projectId: string,
  automationId: string,
  number: number,
  body: MigrateBody,
): Promise<MigrateResponse> {
  const automation = await findAutomation(em, projectId, automationId);
  const [from, to] = await Promise.all([
    em.findOne(AutomationVersion, { automationId, number }),
    em.findOne(AutomationVersion, { automationId, number: automation.version }),
  ]);
  if (!from || !to) throw notFound('Version');
  if (from.number === to.number) {
    throw conflict(`Version ${number} is the latest; executions can move only from an earlier version to it`, { latest: to.number });
  }
  const problems: FieldError[] = [];
  for (const [fromStepId, toStepId] of Object.entries(body.map)) {
    if (!from.graph.steps.some((s) => s.id === fromStepId))
      problems.push({ field: `map.${fromStepId}`, message: `Not a step of version ${from.number}`, code: 'unknown_step' });
    if (!to.graph.steps.some((s) => s.id === toStepId))
      problems.push({
        field: `map.${fromStepId}`,
        message: `${toStepId} is not a step of version ${to.number}, the latest`,
        code: 'unknown_step',
      });
  }
  if (problems.length) throw validationError(problems, 'The map names steps the versions do not have');
  const definition = { name: automation.name, version: to.number, steps: to.graph.steps, transitions: to.graph.transitions };
  const executions = await em.execute<Array<{ id: string; status: string; current_step_id: string | null; temporal_workflow_id: string }>>(
    OF_VERSION,
    [automationId, from.number],
  );
  const moving = executions.filter((x) => x.status === 'WAITING' && x.current_step_id !== null && body.map[x.current_step_id]);
  let migrated = 0;
  // Those signalled before Temporal became unreachable have moved; asking again finds them on the latest version.
  await callTemporal('the executions not signalled yet stay on their version; ask again to move them', async () => {
    for (let i = 0; i < moving.length; i += SIGNALS_AT_ONCE) {
      const sent = await Promise.all(
        moving.slice(i, i + SIGNALS_AT_ONCE).map((x) =>
          migrateAutomationRun(deps.temporal, x.temporal_workflow_id, {
            definition,
            fromStepId: x.current_step_id!,
            toStepId: body.map[x.current_step_id!]!,
          }),
        ),
      );
      migrated += sent.filter(Boolean).length;
    }
  });
  return {
    fromVersion: from.number,
    toVersion: to.number,
    migrated,
    skipped: {
      running: executions.filter((x) => x.status === 'RUNNING').length,
      unmapped: executions.filter((x) => x.status === 'WAITING' && !moving.includes(x)).length,
      ended: moving.length - migrated,
    },
  };
}
