import type { Deps } from '../../deps';
import { isSignedClick, isSignedOpen, isWebPage } from '../links/tracking';
import type { SesNotification } from '../sns/schemas';
import { applySesNotification } from '../sns/ses';
import { checkAfterFeedback } from '../reputation/guard';
import { recordClick, recordOpen } from '../tracking/service';
import type { SimulatedOutcome } from './addresses';
import { trackingLinksOf } from './message-links';

/** How long after its delivery a simulated reader opens (then clicks) the message. */
export const READ_DELAY_MS = 1_000;
/** The pump marks an email SENT shortly after the server's reply; feedback about it waits for that mark. */
const SENT_WAIT_MS = 60_000;
const SENT_POLL_MS = 100;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

type Feedback = 'Delivery' | 'Bounce' | 'Complaint';

/** The notification Amazon SES would publish about the message, as its SNS delivery carries it. */
function notification(kind: Feedback, messageId: string): SesNotification {
  const timestamp = new Date().toISOString();
  return {
    notificationType: kind,
    mail: { messageId: `simulator-${messageId}`, commonHeaders: { messageId } },
    ...(kind === 'Delivery' ? { delivery: { timestamp } } : {}),
    ...(kind === 'Bounce' ? { bounce: { timestamp, bounceType: 'Permanent' } } : {}),
    ...(kind === 'Complaint' ? { complaint: { timestamp } } : {}),
  };
}

type FeedbackDeps = Pick<Deps, 'orm' | 'config' | 'mailer' | 'logger'>;

/**
 * Records a notification through the code that SES feedback delivered by SNS goes through (applySesNotification),
 * and then, for a bounce or complaint, the reputation check, as POST /webhooks/sns does. The message was
 * accepted a moment ago, so the email may not be marked SENT yet: until then it is "unmatched".
 */
async function notify(deps: FeedbackDeps, kind: Feedback, messageId: string): Promise<void> {
  const deadline = Date.now() + SENT_WAIT_MS;
  for (;;) {
    const { result, judge } = await applySesNotification(deps.orm.em.fork(), notification(kind, messageId));
    if (judge) await checkAfterFeedback(deps, judge);
    if (result !== 'unmatched' || Date.now() > deadline) return;
    await sleep(SENT_POLL_MS);
  }
}

/**
 * What the simulated receiving side does after accepting a message (docs/sandbox.md). Opens and clicks go
 * through the tracking code with the pixel and link the message itself carries, so a message sent without
 * tracking is never opened.
 */
export async function simulateFeedback(
  deps: FeedbackDeps,
  outcome: SimulatedOutcome,
  message: { messageId: string; raw: string },
): Promise<void> {
  const { orm, config } = deps;
  if (outcome === 'bounce') return notify(deps, 'Bounce', message.messageId);
  await notify(deps, 'Delivery', message.messageId);
  if (outcome === 'complaint') return notify(deps, 'Complaint', message.messageId);
  if (outcome !== 'open' && outcome !== 'click') return;
  await sleep(READ_DELAY_MS);
  const links = trackingLinksOf(message.raw, config.PUBLIC_URL);
  if (links.open && isSignedOpen(config, links.open.emailId, links.open.signature)) await recordOpen(orm.em.fork(), links.open.emailId);
  const click = links.click;
  if (outcome === 'click' && click && isWebPage(click.target) && isSignedClick(config, click.emailId, click.target, click.signature)) {
    await recordClick(orm.em.fork(), click.emailId, click.target);
  }
}
