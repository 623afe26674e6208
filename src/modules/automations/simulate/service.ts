import type { EntityManager } from '@mikro-orm/postgresql';
import { newId } from '../../../db/columns';
import type { Deps } from '../../../deps';
import { ApiError, badRequest, notFound } from '../../../http/errors';
import { DEFAULT_TEST_SERVER, PoolFull, SimulationPool, type SimulationPoolState } from '../../../temporal/simulation-pool';
import type { Definition } from '../../../../workflows/automation/definition';
import { Contact } from '../../contacts/entities';
import { toDataPatch } from '../../contacts/custom-fields';
import { findAutomation } from '../service';
import { definitionOf } from '../snapshots';
import { draftDefinition } from './definition';
import { drive } from './drive';
import { MAX_SIMULATED_MS, offsetMs } from './duration';
import { SimulationRun, SimulationRuns, type SimulatedContact, type SimulatedEvent } from './run';
import type { SimulateBody, SimulationResponse } from './schemas';
import { failuresOf, timelineOf } from './timeline';

/**
 * Real time a simulation may take once on its server; a healthy one takes milliseconds to a second. Past it the
 * request answers 503 rather than stall, and the server is replaced.
 */
const SIMULATION_TIMEOUT_MS = 30_000;

/** The contact a simulation without contactId or contact runs for. */
const DEFAULT_EMAIL = 'contact@example.com';

/** The rehearsal's automation: one EXIT, which reads and writes nothing of any project. */
const REHEARSAL: Definition = { name: 'Rehearsal', steps: [{ id: 'exit', name: null, type: 'EXIT', config: {} }], transitions: [] };

/** The activities a simulation's worker runs (activities/automation, wired by the composition root). */
export type SimulatedActivitiesFactory = (deps: Deps, runs: SimulationRuns) => object;

/** Counters of the API process, logged with every simulation (docs/simulation.md "Operators"). */
export interface SimulationCounters {
  simulated: number;
  failed: number;
  refused: number;
}

async function contactFor(em: EntityManager, projectId: string, body: SimulateBody): Promise<SimulatedContact> {
  if (body.contactId) {
    const stored = await em.findOne(Contact, { id: body.contactId, projectId });
    if (!stored) throw notFound('Contact', 'CONTACT_NOT_FOUND');
    const { id, email, subscribed, data, createdAt, updatedAt } = stored;
    return { id, email, subscribed, data: { ...data }, createdAt, updatedAt, stored: true };
  }
  const given = body.contact ?? { subscribed: true, data: {} };
  const now = new Date();
  return {
    id: newId(),
    email: given.email ?? DEFAULT_EMAIL,
    subscribed: given.subscribed,
    // The custom-field rules, as a contact created with this data would store it.
    data: toDataPatch(given.data).set,
    createdAt: now,
    updatedAt: now,
    stored: false,
  };
}

/** The trigger at 0, then the events given, in the order they arrive. */
function eventsOf(body: SimulateBody): SimulatedEvent[] {
  const trigger = body.trigger ? [{ id: newId(), name: body.trigger.event, data: body.trigger.data, afterMs: 0, trigger: true }] : [];
  const later = body.events.map((e) => ({ id: newId(), name: e.event, data: e.data, afterMs: offsetMs(e.after) }));
  return [...trigger, ...later.sort((a, b) => a.afterMs - b.afterMs)];
}

/** Step ids the request names must be steps of the definition simulated. */
function checkStepIds(definition: Definition, body: SimulateBody): void {
  const known = new Set(definition.steps.map((s) => s.id));
  const named = [
    ...Object.keys(body.webhookResponses).map((id) => ({ id, field: `webhookResponses.${id}` })),
    ...(body.expect ?? []).map((e, i) => ({ id: e.stepId, field: `expect.${i}.stepId` })),
  ];
  const unknown = named.filter((n) => !known.has(n.id));
  if (unknown.length) {
    throw badRequest(`${unknown[0]!.id} is not a step of the definition simulated`, {
      errors: unknown.map((n) => ({ field: n.field, message: `${n.id} is not a step of the definition simulated`, code: 'unknown_step' })),
    });
  }
}

/**
 * POST /workflows/{id}/simulate (docs/simulation.md): the automation workflow itself on a time-skipping test
 * server, with simulated activities; the project's data is only read.
 */
export class Simulator {
  private pool: SimulationPool | undefined;
  private readonly runs = new SimulationRuns();
  /** Rehearsals that ran to their end (see rehearse). */
  rehearsals = 0;
  readonly counters: SimulationCounters = { simulated: 0, failed: 0, refused: 0 };

  constructor(
    private readonly deps: Deps,
    private readonly activities: SimulatedActivitiesFactory,
  ) {}

  private poolNow(): SimulationPool {
    const { config, logger } = this.deps;
    this.pool ??= new SimulationPool({
      size: config.SIMULATION_SERVERS,
      queue: config.SIMULATION_QUEUE,
      timeoutMs: SIMULATION_TIMEOUT_MS,
      serverPath: config.TEMPORAL_TEST_SERVER_PATH ?? DEFAULT_TEST_SERVER,
      bundlePath: config.WORKER_WORKFLOW_BUNDLE,
      activities: this.activities(this.deps, this.runs),
      logger,
      warm: config.SIMULATION_WARM,
    });
    return this.pool;
  }

  /** A server starts in the background so that the next simulation finds it running (the API's start, SIMULATION_WARM). */
  warm(): void {
    const pool = this.poolNow();
    pool.warm();
    void this.rehearse(pool);
  }

  /**
   * A worker's first workflow run loads the workflow bundle into a fresh context, most of a first simulation's
   * second; a rehearsal on the warm server pays for it before anyone asks, so the first simulation is as fast as
   * the rest. It waits for the server being warmed rather than start another.
   */
  private async rehearse(pool: SimulationPool): Promise<void> {
    const id = newId();
    const now = new Date();
    const contact = { id: newId(), email: DEFAULT_EMAIL, subscribed: true, data: {}, createdAt: now, updatedAt: now, stored: false };
    const run = new SimulationRun(id, id, id, contact, [], {});
    const input = { executionId: id, projectId: id, automationId: id, contactId: contact.id, definition: REHEARSAL, context: {} };
    this.runs.add(run);
    try {
      await pool.run((slot) => drive(slot, run, input, 0));
      this.rehearsals++;
    } catch (err) {
      this.deps.logger.warn({ err }, 'the simulation rehearsal failed; the first simulation will load the workflows');
    } finally {
      this.runs.remove(run);
    }
  }

  /** The test servers now; none before the first simulation or warm-up. */
  get servers(): SimulationPoolState {
    return this.pool?.state ?? { servers: 0, idle: 0, starts: 0, warmStarts: 0 };
  }

  async simulate(em: EntityManager, projectId: string, automationId: string, body: SimulateBody): Promise<SimulationResponse> {
    const started = performance.now();
    const automation = await findAutomation(em, projectId, automationId);
    const definition = body.definition
      ? await draftDefinition(em, projectId, automation.name, body.definition, automation.goal)
      : await definitionOf(em, automation);
    checkStepIds(definition, body);
    const contact = await contactFor(em, projectId, body);
    const run = new SimulationRun(newId(), projectId, automation.id, contact, eventsOf(body), body.webhookResponses);
    const limitMs = body.until ? offsetMs(body.until) : MAX_SIMULATED_MS;
    const context = { ...(body.trigger?.data ?? {}), ...body.context };
    const input = { executionId: run.id, projectId, automationId: automation.id, contactId: contact.id, definition, context };
    this.runs.add(run);
    try {
      await this.poolNow().run((slot) => drive(slot, run, input, limitMs));
    } catch (err) {
      if (err instanceof PoolFull) {
        this.counters.refused++;
        this.deps.logger.warn(
          { projectId, automationId, ...this.counters, ...this.poolNow().load },
          'simulation refused: too many at once',
        );
        throw new ApiError(429, 'RATE_LIMIT_EXCEEDED', 'Too many simulations are running; try again shortly', {
          details: { retryAfter: 1 },
          headers: { 'Retry-After': '1' },
        });
      }
      this.counters.failed++;
      this.deps.logger.error({ err, projectId, automationId, ...this.counters }, 'simulation failed');
      throw new ApiError(503, 'SERVICE_UNAVAILABLE', 'The simulation could not run; nothing was changed', {
        suggestion: 'Try again in a minute.',
      });
    } finally {
      this.runs.remove(run);
    }
    const wallMs = performance.now() - started;
    const timeline = timelineOf(run, definition, limitMs, wallMs);
    this.counters.simulated++;
    this.deps.logger.info(
      {
        simulationId: run.id,
        projectId,
        automationId,
        draft: body.definition !== undefined,
        status: timeline.status,
        wallMs: timeline.wallMs,
        ...this.counters,
      },
      'automation simulated',
    );
    if (!body.expect) return timeline;
    const failures = failuresOf(body.expect, timeline.steps);
    return { ...timeline, passed: failures.length === 0, failures };
  }

  async close(): Promise<void> {
    await this.pool?.close();
  }
}
