import { continueAsNew, patched, proxyActivities, sleep, workflowInfo } from '@temporalio/workflow';
import type { DomainActivities } from '../../activities/domains';
import { CHECK_INTERVAL, CHECKS_PER_RUN, type DomainVerifyInput } from './ids';
import { runIsFull } from '../run-length';

/** Runs that start after this patch continue as new at RUN_EVENTS history events (workflows/run-length.ts); earlier ones after CHECKS_PER_RUN checks. */
const SHORT_RUNS = 'domain-verify-short-runs';

const { checkDomainDns } = proxyActivities<DomainActivities>({
  startToCloseTimeout: '1 minute',
  retry: { maximumInterval: CHECK_INTERVAL },
});

/**
 * Checks a sender domain's DNS records every 5 minutes for the domain's whole life, verified or not: a
 * record removed later takes the domain back to pending. Ends when the domain no longer exists.
 */
export async function domainVerify(input: DomainVerifyInput): Promise<void> {
  const shortRuns = patched(SHORT_RUNS);
  for (let checks = 1; ; checks++) {
    const { exists } = await checkDomainDns(input.domainId);
    if (!exists) return;
    await sleep(CHECK_INTERVAL, { summary: 'Wait before the next DNS check' });
    if (shortRuns ? runIsFull() : checks >= CHECKS_PER_RUN || workflowInfo().continueAsNewSuggested) {
      await continueAsNew<typeof domainVerify>(input);
    }
  }
}
