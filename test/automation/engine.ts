import { randomBytes } from 'node:crypto';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { EventDispatcher } from '../../src/modules/outbox/dispatcher';
import { automationTrigger } from '../../src/modules/automations/trigger';
import type { DeliveryPump } from '../../src/modules/emails/delivery/pump';
import { startStack, type TestStack } from '../helpers/stack';
import { gatewayFor, startWorker } from '../helpers/temporal';
import { timeSkippingEnv } from '../helpers/temporal-env';
import { startPump } from '../helpers/pump';
import { Simulator } from '../../src/modules/sandbox/simulator';

/** What the worker process runs for automations: workflows and activities, the events outbox, the delivery pump. */
export interface Engine {
  stack: TestStack;
  /** Set on the time-skipping server. */
  env: TestWorkflowEnvironment | null;
  dispatcher: EventDispatcher;
  pump: DeliveryPump;
  close(): Promise<void>;
}

export async function startDispatcher(stack: TestStack): Promise<EventDispatcher> {
  const dispatcher = new EventDispatcher(
    stack.deps.orm,
    stack.deps.config.DATABASE_URL,
    [automationTrigger(stack.deps)],
    stack.deps.logger,
    {
      pollIntervalMs: 500,
      retryBaseMs: 200,
      retryMaxMs: 1_000,
    },
  );
  await dispatcher.start();
  return dispatcher;
}

/** The real stack with the engine running: on the time-skipping server, or on the dev server (`timeSkipping: false`). */
export async function startEngine(options: {
  timeSkipping: boolean;
  env?: Record<string, string>;
  smtpListeners?: boolean;
}): Promise<Engine> {
  const env = options.timeSkipping ? await timeSkippingEnv() : null;
  const stack = await startStack({
    env: options.env,
    smtpListeners: options.smtpListeners,
    ...(env ? { temporal: gatewayFor(env, `automation-${randomBytes(4).toString('hex')}`) } : {}),
    worker: (deps) => startWorker(deps, env?.nativeConnection),
    terminateWorkflows: !env,
  });
  const dispatcher = await startDispatcher(stack);
  // As in the worker: the simulator addresses are served where the pump runs (docs/sandbox.md).
  const simulator = stack.deps.config.SANDBOX_ENABLED ? await Simulator.start(stack.deps) : null;
  const pump = await startPump(stack.deps);
  return {
    stack,
    env,
    dispatcher,
    pump,
    close: async () => {
      await pump.stop();
      await simulator?.close();
      await dispatcher.stop();
      await stack.close();
      await env?.teardown();
    },
  };
}

/**
 * A test file's automation engine on the time-skipping server: started before its tests and closed after them;
 * `bind` hands the file its stack and environment once started.
 */
export function timeSkippingEngine(bind: (started: { stack: TestStack; env: TestWorkflowEnvironment }) => void): void {
  let engine: Engine | undefined;
  beforeAll(async () => {
    engine = await startEngine({ timeSkipping: true });
    bind({ stack: engine.stack, env: engine.env! });
  });
  afterAll(() => engine?.close());
}
