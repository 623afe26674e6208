import path from 'node:path';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import type { Worker, WorkflowBundleOption } from '@temporalio/worker';
import type { Logger } from '../logger';
import { workflowsPath } from '../../workflows/path';
import { testServerKeepalive } from './test-server-keepalive';

/**
 * Time-skipping test servers for automation simulations (docs/simulation.md). A server has one virtual clock,
 * so each runs one simulation at a time; `size` of them run side by side, further simulations wait in a queue
 * of `queue`, and beyond it `run` throws PoolFull. Servers start on first use, each with a worker that polls
 * it with the activities given, and are replaced once their clock has run far ahead. `warm()` starts one ahead of
 * use, in the background; with `warm` set, the pool starts another whenever a replacement leaves it none.
 */

export interface SimulationSlot {
  env: TestWorkflowEnvironment;
  taskQueue: string;
}

export interface SimulationPoolOptions {
  size: number;
  queue: number;
  /** Real time a simulation may take on its server; its server is replaced after. */
  timeoutMs: number;
  /** The test server binary. */
  serverPath: string;
  /** A prebuilt workflow bundle (WORKER_WORKFLOW_BUNDLE); the workflows are bundled at first use otherwise. */
  bundlePath?: string;
  activities: object;
  logger: Logger;
  /** Keeps one server started: after a replacement leaves none, the next starts at once rather than at the next simulation. */
  warm?: boolean;
}

/** What the pool holds now (docs/simulation.md "Operators"). */
export interface SimulationPoolState {
  /** Servers started or starting. */
  servers: number;
  /** Servers started and free. */
  idle: number;
  /** Server starts begun since the pool was made, warm ones included. */
  starts: number;
  /** Of them, the ones started ahead of use. */
  warmStarts: number;
}

/** Every simulation is already running or queued. */
export class PoolFull extends Error {}

/** A simulation ran past its wall-clock budget (a run stuck in failing workflow tasks holds the clock). */
export class SimulationTimedOut extends Error {}

const TASK_QUEUE = 'simulation';
/**
 * A server whose clock ran this far ahead is replaced: a simulation moves it on by up to 400 days, and
 * timestamps end at year 9999. A thousand years is some 900 simulations that run their full span.
 */
const CLOCK_HORIZON_MS = 1000 * 365 * 86_400_000;
/** The test server keeps every run it was given in memory (about 0.1 MB each): after this many it is replaced. */
const RUNS_PER_SERVER = 1_000;

/** Where `npm start` installs the test server, when TEMPORAL_TEST_SERVER_PATH does not say. */
export const DEFAULT_TEST_SERVER = path.resolve(__dirname, '..', '..', '.tools', 'venv', 'bin', 'temporal-test-server');

interface Slot extends SimulationSlot {
  worker: Worker;
  running: Promise<void>;
  runs: number;
}

/**
 * The SDK's core warns so at every simulation: the time-skipping test server reports no version. It concerns an
 * activity's heartbeat details after a failure, which simulations never read, so it would only be noise in the
 * API's log (a warning at every simulation) that nobody can act on.
 */
const TEST_SERVER_VERSION_WARNING = 'Temporal Server 1.16.0 or newer is required';

export class SimulationPool {
  private readonly idle: Slot[] = [];
  private readonly waiting: Array<(slot: Slot | null) => void> = [];
  private started = 0;
  /** Starts under way that no simulation asked for: the next simulations wait for them rather than start their own. */
  private warming = 0;
  private starts = 0;
  private warmStarts = 0;
  private closed = false;
  private bundle: Promise<WorkflowBundleOption> | undefined;
  private readonly all = new Set<Slot>();
  /** Starts and stops under way, which close() waits for: no server outlives the pool. */
  private readonly pending = new Set<Promise<unknown>>();
  private sdkLogsRouted = false;

  constructor(private readonly options: SimulationPoolOptions) {}

  /** Simulations running and waiting now. */
  get load(): { running: number; queued: number } {
    return { running: this.started - this.idle.length, queued: this.waiting.length };
  }

  get state(): SimulationPoolState {
    return { servers: this.started, idle: this.idle.length, starts: this.starts, warmStarts: this.warmStarts };
  }

  /**
   * Starts a server and its worker in the background unless one is started or starting, so that the next
   * simulation finds it running (a start takes seconds). A failed start is logged; the next simulation tries again.
   */
  warm(): void {
    if (this.closed || this.started > 0) return;
    this.started++;
    this.warming++;
    this.warmStarts++;
    void this.track(this.startSlot()).then(
      (slot) => {
        this.warming--;
        this.options.logger.info({ ...this.state }, 'simulation server started ahead of use');
        this.release(slot, slot);
      },
      (err: unknown) => {
        this.warming--;
        if (!this.closed) this.options.logger.warn({ err }, 'simulation server failed to start ahead of use');
        this.freePlace();
      },
    );
  }

  async run<T>(work: (slot: SimulationSlot) => Promise<T>): Promise<T> {
    const slot = await this.acquire();
    let keep = true;
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new SimulationTimedOut(`The simulation took over ${this.options.timeoutMs} ms`)),
        this.options.timeoutMs,
      );
    });
    const working = work(slot);
    // Still running after a timeout: it fails as its server goes away, and nobody waits for it.
    working.catch(() => undefined);
    try {
      return await Promise.race([working, timedOut]);
    } catch (err) {
      // A server in an unknown state is not handed to the next simulation.
      keep = false;
      throw err;
    } finally {
      clearTimeout(timer);
      keep &&= ++slot.runs < RUNS_PER_SERVER && (await slot.env.currentTimeMs().catch(() => Infinity)) < Date.now() + CLOCK_HORIZON_MS;
      this.release(keep ? slot : null, slot);
    }
  }

  private async acquire(): Promise<Slot> {
    if (this.closed) throw new PoolFull('The simulation pool is closed');
    const free = this.idle.pop();
    if (free) return free;
    // A server starting ahead of use is nearer than a new one: wait for it, queue or not.
    if (this.waiting.length < this.warming) return this.handedOrStarted();
    if (this.started < this.options.size) {
      this.started++;
      return this.startCounted();
    }
    if (this.waiting.length >= this.options.queue) throw new PoolFull('Too many simulations at once');
    return this.handedOrStarted();
  }

  /** Waits in line: handed a slot, or (null) the place of one that was discarded or failed to start. */
  private async handedOrStarted(): Promise<Slot> {
    const slot = await new Promise<Slot | null>((resolve) => this.waiting.push(resolve));
    if (this.closed) throw new PoolFull('The simulation pool is closed');
    return slot ?? this.startCounted();
  }

  /** Starts a slot already counted in `started`; a failed start gives its place back. */
  private async startCounted(): Promise<Slot> {
    try {
      return await this.track(this.startSlot());
    } catch (err) {
      this.freePlace();
      throw err;
    }
  }

  /** A place in `started` is free: the next in line takes it to start a slot of its own, or the count drops. */
  private freePlace(): void {
    const next = this.waiting.shift();
    if (next) next(null);
    else this.started--;
  }

  /**
   * Hands the slot to the next in line, or keeps it idle; a discarded one is stopped and its place freed (and,
   * with `warm`, a replacement started when none is left).
   */
  private release(slot: Slot | null, used: Slot): void {
    if (this.closed) {
      void this.stopSlot(used);
      return;
    }
    if (!slot) {
      void this.stopSlot(used);
      this.freePlace();
      if (this.options.warm) this.warm();
      return;
    }
    const next = this.waiting.shift();
    if (next) next(slot);
    else this.idle.push(slot);
  }

  private async startSlot(): Promise<Slot> {
    // Loaded at the first simulation: the SDK's worker takes about a second to load, which every API start would pay.
    const [{ TestWorkflowEnvironment }, { Worker, Runtime, DefaultLogger }] = await Promise.all([
      import('@temporalio/testing'),
      import('@temporalio/worker'),
    ]);
    if (!this.sdkLogsRouted) {
      this.sdkLogsRouted = true;
      const { logger } = this.options;
      try {
        // The SDK's warnings and errors join the API's JSON log; its info lines (worker states) stay out of it.
        Runtime.install({
          logger: new DefaultLogger('WARN', ({ level, message, meta }) => {
            if (message.startsWith(TEST_SERVER_VERSION_WARNING)) return;
            logger[level === 'ERROR' ? 'error' : 'warn'](meta ?? {}, message);
          }),
          telemetryOptions: { logging: { filter: { core: 'WARN', other: 'WARN' }, forward: {} } },
        });
      } catch {
        // Something in this process set the SDK's runtime up first (a test's environment): its logging stands.
      }
    }
    if (this.closed) throw new PoolFull('The simulation pool is closed');
    this.starts++;
    const env = await TestWorkflowEnvironment.createTimeSkipping({
      server: { executable: { type: 'existing-path', path: this.options.serverPath } },
      // A warm server waits minutes for its first simulation; its connection must not be cut at 90 s.
      plugins: [testServerKeepalive],
    });
    let worker: Worker;
    try {
      worker = await Worker.create({
        connection: env.nativeConnection,
        taskQueue: TASK_QUEUE,
        workflowBundle: await this.workflowBundle(),
        activities: this.options.activities,
        // A simulation is short; runs left waiting at the end of theirs need no place in the cache.
        maxCachedWorkflows: 20,
      });
    } catch (err) {
      await env.teardown();
      throw err;
    }
    const slot: Slot = { env, taskQueue: TASK_QUEUE, worker, running: worker.run(), runs: 0 };
    this.all.add(slot);
    slot.running.catch((err: unknown) => this.options.logger.error({ err }, 'simulation worker stopped'));
    if (!this.closed) return slot;
    // Closed while it started: close() waits for this start, so the server stops before close() returns.
    await this.stopSlot(slot);
    throw new PoolFull('The simulation pool is closed');
  }

  private workflowBundle(): Promise<WorkflowBundleOption> {
    const { bundlePath } = this.options;
    this.bundle ??= bundlePath
      ? Promise.resolve({ codePath: bundlePath })
      : import('@temporalio/worker').then(async ({ bundleWorkflowCode, DefaultLogger }) => {
          const { code } = await bundleWorkflowCode({ workflowsPath, logger: new DefaultLogger('WARN') });
          return { code };
        });
    return this.bundle;
  }

  private track<T>(work: Promise<T>): Promise<T> {
    this.pending.add(work);
    const settled = () => this.pending.delete(work);
    work.then(settled, settled);
    return work;
  }

  private stopSlot(slot: Slot): Promise<void> {
    // Stopped once, by whoever comes first: a release after close, or close itself.
    if (!this.all.delete(slot)) return Promise.resolve();
    return this.track(
      (async () => {
        // A worker that already failed refuses to shut down; its server is torn down all the same.
        if (slot.worker.getState() === 'RUNNING') slot.worker.shutdown();
        await slot.running.catch(() => undefined);
        await slot.env.teardown().catch(() => undefined);
      })(),
    );
  }

  /** Stops every server, those still starting included (each is stopped once started). */
  async close(): Promise<void> {
    this.closed = true;
    for (const resolve of this.waiting.splice(0)) resolve(null);
    this.idle.splice(0);
    for (const slot of [...this.all]) void this.stopSlot(slot);
    while (this.pending.size > 0) await Promise.allSettled([...this.pending]);
  }
}
