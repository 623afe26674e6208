export { domainVerify } from './domain-verify/workflow';
export { segmentCompute } from './segments/compute';
export { segmentTracking } from './segments/tracking';
export { contactImport } from './jobs/import';
export { contactBulk } from './jobs/bulk';
export { campaignSend } from './campaigns/send';
export { automation } from './automation/workflow';
export { webhookEndpoint } from './webhooks/workflow';
