export { domainVerify } from './domain-verify/workflow';
