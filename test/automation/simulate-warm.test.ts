import { execFileSync } from 'node:child_process';
import { simulatorFor } from '../../src/app/simulator';
import { createLogger } from '../../src/logger';
import { DEFAULT_TEST_SERVER, SimulationPool } from '../../src/temporal/simulation-pool';
import { startStack, type TestStack } from '../helpers/stack';
import { tenant, type Tenant } from '../helpers/tenants';
import { waitFor } from '../helpers/wait';
import { createWorkflow } from './helpers';

/**
 * SIMULATION_WARM (docs/simulation.md "Concurrency"): the API's start begins a test server in the background, the
 * first simulation runs on it instead of starting one, a replacement leaves one started, and nothing outlives
 * the close.
 */

/** A server and its worker start in seconds, the workflow bundle built first; a loaded machine takes far longer. */
const START_MS = 120_000;

const scenario = {
  definition: {
    steps: [
      { id: 'delay', type: 'DELAY', config: { amount: 3, unit: 'days' } },
      { id: 'exit', type: 'EXIT', config: {} },
    ],
    transitions: [{ fromStepId: 'delay', toStepId: 'exit' }],
  },
};

/** Time-skipping test servers that are children of this process (the SDK's core spawns them). */
function testServers(): number[] {
  return execFileSync('ps', ['-eo', 'pid=,ppid=,comm='], { encoding: 'utf8' })
    .trim()
    .split('\n')
    .map((line) => line.trim().split(/\s+/))
    .filter(([, ppid, comm]) => Number(ppid) === process.pid && (comm ?? '').startsWith('temporal-test'))
    .map(([pid]) => Number(pid));
}

describe('SIMULATION_WARM on', () => {
  let setup: TestStack;
  let t: Tenant;
  let workflowId: string;
  beforeAll(async () => {
    // The tenant and its workflow come first, on a stack that starts no server, so that the warm stack's
    // first simulation is sent while its server is still starting.
    setup = await startStack();
    t = await tenant(setup);
    workflowId = (await createWorkflow(t)).id;
  });
  afterAll(() => setup?.close());

  it(
    'starts a server once the API answered and rehearses a run on it, then the first simulation runs there; the close stops it',
    async () => {
      expect(testServers()).toEqual([]);
      const stack = await startStack({ env: { SIMULATION_WARM: 'true' } });
      try {
        const simulator = simulatorFor(stack.deps);
        // Nothing loads before the API answered its first request (a readiness probe); then the server starts.
        expect(simulator.servers).toEqual({ servers: 0, idle: 0, starts: 0, warmStarts: 0 });
        await stack.http().get('/config').expect(200);
        await waitFor('the warm-up to begin', async () => (simulator.servers.warmStarts === 1 ? true : undefined), START_MS);
        expect(simulator.servers.servers).toBe(1);
        // Its worker's first workflow run is a rehearsal, so that the first simulation is not the one to load the workflows.
        await waitFor('the rehearsal to run', async () => (simulator.rehearsals === 1 ? true : undefined), START_MS);
        const key = t.project.secret;
        const first = await stack.http().post(`/workflows/${workflowId}/simulate`).set('Authorization', `Bearer ${key}`).send(scenario);
        expect(first.status).toBe(200);
        expect(first.body).toMatchObject({ status: 'EXITED', endedAfter: 'P3D' });
        // The simulation waited for the server begun at the start rather than start one of its own (two may run).
        expect(simulator.servers).toEqual({ servers: 1, idle: 1, starts: 1, warmStarts: 1 });
        expect(testServers()).toHaveLength(1);
      } finally {
        await stack.close();
      }
      expect(testServers()).toEqual([]);
    },
    START_MS,
  );

  it(
    'has the server running before the first simulation when the start had time',
    async () => {
      const stack = await startStack({ env: { SIMULATION_WARM: 'true' } });
      try {
        const simulator = simulatorFor(stack.deps);
        await stack.http().get('/config').expect(200);
        await waitFor('the warm server', async () => (simulator.servers.idle === 1 ? true : undefined), START_MS);
        expect(testServers()).toHaveLength(1);
        const key = t.project.secret;
        const first = await stack.http().post(`/workflows/${workflowId}/simulate`).set('Authorization', `Bearer ${key}`).send(scenario);
        expect(first.status).toBe(200);
        expect(simulator.servers).toEqual({ servers: 1, idle: 1, starts: 1, warmStarts: 1 });
      } finally {
        await stack.close();
      }
      expect(testServers()).toEqual([]);
    },
    START_MS * 2,
  );
});

describe('SIMULATION_WARM off (the test stack default)', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startStack();
  });
  afterAll(() => stack?.close());

  it(
    'starts no server until a simulation asks for one',
    async () => {
      const t = await tenant(stack);
      const workflowId = (await createWorkflow(t)).id;
      expect(simulatorFor(stack.deps).servers).toEqual({ servers: 0, idle: 0, starts: 0, warmStarts: 0 });
      expect(testServers()).toEqual([]);
      expect((await t.c.post(`/workflows/${workflowId}/simulate`).send(scenario)).status).toBe(200);
      expect(simulatorFor(stack.deps).servers).toEqual({ servers: 1, idle: 1, starts: 1, warmStarts: 0 });
    },
    START_MS,
  );
});

/** A pool of one server that keeps one warm, without a queue. */
const warmPool = () =>
  new SimulationPool({
    size: 1,
    queue: 0,
    timeoutMs: 30_000,
    serverPath: process.env.TEMPORAL_TEST_SERVER_PATH ?? DEFAULT_TEST_SERVER,
    activities: {},
    logger: createLogger('silent', 'test'),
    warm: true,
  });

describe('a replacement', () => {
  it(
    'starts another server at once when a discarded one leaves none, and close stops it',
    async () => {
      const pool = warmPool();
      try {
        pool.warm();
        await waitFor('the warm server', async () => (pool.state.idle === 1 ? true : undefined), START_MS);
        const [first] = testServers();
        // A simulation that throws leaves its server in an unknown state: it is discarded.
        await expect(pool.run(() => Promise.reject(new Error('broken')))).rejects.toThrow('broken');
        expect(pool.state).toMatchObject({ servers: 1, warmStarts: 2 });
        await waitFor('the replacement', async () => (pool.state.idle === 1 ? true : undefined), START_MS);
        expect(pool.state).toEqual({ servers: 1, idle: 1, starts: 2, warmStarts: 2 });
        await waitFor('the discarded server to stop', async () => (testServers().includes(first!) ? undefined : true), START_MS);
        expect(testServers()).toHaveLength(1);
        expect(await pool.run(async (slot) => typeof (await slot.env.currentTimeMs()))).toBe('number');
      } finally {
        await pool.close();
      }
      expect(testServers()).toEqual([]);
    },
    START_MS * 2,
  );

  it(
    'close during a warm start waits for it and stops its server',
    async () => {
      const pool = warmPool();
      pool.warm();
      // Closed once its server process runs, while its worker is still being made (or just after).
      await waitFor('the server process', async () => (testServers().length === 1 ? true : undefined), START_MS);
      await pool.close();
      expect(testServers()).toEqual([]);
      expect(pool.state.idle).toBe(0);
    },
    START_MS,
  );
});
