import type { Config } from '../../config';
import { ApiError } from '../../http/errors';

/** The reserved domain of the simulator addresses (docs/sandbox.md); `.test` names never exist on the Internet. */
export const SIMULATOR_DOMAIN = 'simulator.postwire.test';

/** What each simulator mailbox does with the message it is sent. */
export const SIMULATED_OUTCOMES = ['delivered', 'bounce', 'softbounce', 'complaint', 'open', 'click'] as const;
export type SimulatedOutcome = (typeof SIMULATED_OUTCOMES)[number];

const isOutcome = (name: string): name is SimulatedOutcome => (SIMULATED_OUTCOMES as readonly string[]).includes(name);

/** Whether `address` is at the simulator domain, whatever its mailbox. */
export const isSimulatorAddress = (address: string) => address.toLowerCase().endsWith(`@${SIMULATOR_DOMAIN}`);

/** The outcome an address asks for (`bounce+anything@` is `bounce`), or null when it is no simulator mailbox. */
export function simulatedOutcomeOf(address: string): SimulatedOutcome | null {
  if (!isSimulatorAddress(address)) return null;
  const local = address.slice(0, address.lastIndexOf('@')).toLowerCase();
  const mailbox = local.split('+', 1)[0]!;
  return isOutcome(mailbox) ? mailbox : null;
}

/**
 * Producers call this before recording emails: with the sandbox off the simulator domain is refused, and with
 * it on only its known mailboxes are accepted, so that a typo is a 422 rather than an email that fails later.
 */
export function assertSendableRecipients(
  config: Pick<Config, 'SANDBOX_ENABLED'>,
  recipients: Array<{ field: string; email: string }>,
): void {
  const refused = recipients.filter(
    (r) => isSimulatorAddress(r.email) && (!config.SANDBOX_ENABLED || simulatedOutcomeOf(r.email) === null),
  );
  if (refused.length === 0) return;
  const message = config.SANDBOX_ENABLED
    ? `is no simulator mailbox; use one of ${SIMULATED_OUTCOMES.map((o) => `${o}@${SIMULATOR_DOMAIN}`).join(', ')}`
    : `is at ${SIMULATOR_DOMAIN}, which only a development sandbox (SANDBOX_ENABLED) accepts`;
  throw new ApiError(422, 'VALIDATION_ERROR', `${refused[0]!.email} ${message}`, {
    errors: refused.map((r) => ({ field: r.field, message, code: 'simulator_address' })),
    suggestion: config.SANDBOX_ENABLED
      ? 'Pick a simulator mailbox; a suffix such as bounce+test1@ is allowed.'
      : 'Send to a real recipient, or turn the sandbox on in development (docs/sandbox.md).',
  });
}
