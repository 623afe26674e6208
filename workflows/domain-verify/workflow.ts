import { continueAsNew, proxyActivities, sleep, workflowInfo } from '@temporalio/workflow';
import type { DomainActivities } from '../../activities/domains';
import { CHECK_INTERVAL, CHECKS_PER_RUN, type DomainVerifyInput } from './ids';

const { checkDomainDns } = proxyActivities<DomainActivities>({
  startToCloseTimeout: '1 minute',
  retry: { maximumInterval: CHECK_INTERVAL },
});

/**
 * Checks a sender domain's DNS records every 5 minutes for the domain's whole life, verified or not: a
 * record removed later takes the domain back to pending. Ends when the domain no longer exists.
 */
export async function domainVerify(input: DomainVerifyInput): Promise<void> {
  for (let checks = 1; ; checks++) {
    const { exists } = await checkDomainDns(input.domainId);
    if (!exists) return;
    await sleep(CHECK_INTERVAL, { summary: 'Wait before the next DNS check' });
    if (checks >= CHECKS_PER_RUN || workflowInfo().continueAsNewSuggested) {
      await continueAsNew<typeof domainVerify>(input);
    }
  }
}
