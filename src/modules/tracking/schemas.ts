import { z } from 'zod';

export const TrackedEmailParams = z.object({ emailId: z.uuid() });

export const OpenQuery = z.object({ s: z.string().describe('Signature of the pixel URL') });

export const ClickQuery = z.object({
  u: z.string().describe("The link's target, as the email had it"),
  s: z.string().describe('Signature of the email id and target'),
});
