import type { Deps } from '../../src/deps';
import { CampaignBodies } from '../../src/modules/campaigns/bodies';
import { DeliveryPump, type PumpOptions } from '../../src/modules/emails/delivery/pump';

/** Retries come quickly in tests; everything else is the worker's own setting. */
export const TEST_PUMP_OPTIONS: Partial<PumpOptions> = { retryBaseMs: 200, retryMaxMs: 1_000, pollIntervalMs: 1_000 };

/**
 * Runs the worker's email delivery pump against a stack (its database and SMTP sink) until `stop()`. It
 * delivers every due email of the stack's database, whichever test file queued it.
 */
export async function startPump(deps: Deps, options: Partial<PumpOptions> = {}): Promise<DeliveryPump> {
  const pump = new DeliveryPump(deps, new CampaignBodies(deps), { ...TEST_PUMP_OPTIONS, ...options });
  await pump.start();
  return pump;
}
