import { z } from 'zod';

export const VerifyRequest = z.object({
  email: z.email().describe('The address to check'),
});

export const VerificationResult = z.object({
  email: z.string(),
  valid: z.boolean().describe('False only for a malformed address, a domain without nameservers, or no MX records'),
  isDisposable: z.boolean(),
  isAlias: z.boolean().describe('The domain is an email forwarding service'),
  isTypo: z.boolean().describe('The domain looks like a misspelt well-known provider; see suggestion'),
  isPlusAddressed: z.boolean(),
  isPersonalEmail: z.boolean().describe('The domain is a free email provider'),
  domainExists: z.boolean(),
  hasWebsite: z.boolean().describe('The domain has an A or AAAA record'),
  hasMxRecords: z.boolean(),
  reasons: z.array(z.string()).describe('One line per flag; ["Email appears to be valid"] when nothing is flagged'),
  suggestion: z.string().optional().describe('The corrected address, when isTypo'),
});
export type VerificationResult = z.infer<typeof VerificationResult>;

export const VerifyResponse = z.object({ success: z.literal(true), data: VerificationResult });
