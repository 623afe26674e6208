import type { Config } from '../../config';
import { ApiError } from '../../http/errors';
import { SIMULATOR_DOMAIN, isSimulatorAddress } from '../../mail/simulator-domain';

/** What each simulator mailbox does with the message it is sent. */
export const SIMULATED_OUTCOMES = ['delivered', 'bounce', 'softbounce', 'complaint', 'open', 'click'] as const;
export type SimulatedOutcome = (typeof SIMULATED_OUTCOMES)[number];

/** What each mailbox does, in words (the README's table, the dashboard's overview through GET /config). */
export const SIMULATED_OUTCOME_TEXT: Record<SimulatedOutcome, string> = {
  delivered: 'Delivered (email.delivery)',
  bounce: 'Bounced permanently (email.bounce): the contact is unsubscribed and suppressed',
  softbounce: 'Refused once (451), retried about 10 s later, then delivered',
  complaint: 'Delivered, then marked as spam (email.complaint): the contact is unsubscribed and suppressed',
  open: 'Delivered, then opened about a second later (email.open)',
  click: 'Delivered, opened, then its first tracked link clicked (email.click)',
};

const isOutcome = (name: string): name is SimulatedOutcome => (SIMULATED_OUTCOMES as readonly string[]).includes(name);

/** The outcome an address asks for (`bounce+anything@` is `bounce`), or null when it is no simulator mailbox. */
export function simulatedOutcomeOf(address: string): SimulatedOutcome | null {
  if (!isSimulatorAddress(address)) return null;
  const local = address.slice(0, address.lastIndexOf('@')).toLowerCase();
  const mailbox = local.split('+', 1)[0]!;
  return isOutcome(mailbox) ? mailbox : null;
}

const mailboxList = () => SIMULATED_OUTCOMES.map((o) => `${o}@${SIMULATOR_DOMAIN}`).join(', ');

/**
 * Why no email may go to `address`, or null when one may: with the sandbox off the simulator domain is
 * refused, and with it on only its known mailboxes are accepted. The one rule for every producer, each of which
 * answers it in its own way: /v1/send with a 422 (assertSendableRecipients), a campaign skips the recipient, an
 * automation's SEND_EMAIL step fails.
 */
export function simulatorRefusal(config: Pick<Config, 'SANDBOX_ENABLED'>, address: string): string | null {
  if (!isSimulatorAddress(address)) return null;
  if (!config.SANDBOX_ENABLED) return `is at ${SIMULATOR_DOMAIN}, which only a development sandbox (SANDBOX_ENABLED) accepts`;
  return simulatedOutcomeOf(address) === null ? `is no simulator mailbox; use one of ${mailboxList()}` : null;
}

/**
 * /v1/send calls this before recording anything, so that a refused recipient (a typo of a simulator mailbox,
 * or the simulator domain outside development) is a 422 rather than an email that fails later.
 */
export function assertSendableRecipients(
  config: Pick<Config, 'SANDBOX_ENABLED'>,
  recipients: Array<{ field: string; email: string }>,
): void {
  const refused = recipients.flatMap((r) => {
    const message = simulatorRefusal(config, r.email);
    return message === null ? [] : [{ ...r, message }];
  });
  if (refused.length === 0) return;
  throw new ApiError(422, 'VALIDATION_ERROR', `${refused[0]!.email} ${refused[0]!.message}`, {
    errors: refused.map((r) => ({ field: r.field, message: r.message, code: 'simulator_address' })),
    suggestion: config.SANDBOX_ENABLED
      ? 'Pick a simulator mailbox; a suffix such as bounce+test1@ is allowed.'
      : 'Send to a real recipient, or turn the sandbox on in development (docs/sandbox.md).',
  });
}
