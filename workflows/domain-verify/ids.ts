/** Names and timing of the domain verification workflow, shared by the workflow and the code that starts it. */

export const domainVerifyWorkflowId = (domainId: string) => `domain-verify:${domainId}`;

export const domainVerifySummary = (domain: string, projectId: string) => `Verify DNS of ${domain} (project ${projectId})`;

export interface DomainVerifyInput {
  domainId: string;
}

/** docs/domains.md "Background check": every 5 minutes. */
export const CHECK_INTERVAL = '5 minutes';

/** Eight hours of checks per run (about a thousand history events), for runs started before the domain-verify-short-runs patch. */
export const CHECKS_PER_RUN = 96;
