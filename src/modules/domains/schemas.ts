import { z } from 'zod';
import { resourceId } from '../../http/resource-id';
import { normalizeDomainName } from './hostname';

/** A bad name is reported like any malformed string (`invalid_string` in the error list). */
export const DomainName = z
  .string()
  .max(253)
  .transform((value, ctx) => {
    const name = normalizeDomainName(value);
    if (name) return name;
    ctx.issues.push({
      code: 'invalid_format',
      format: 'hostname',
      input: value,
      message: 'Must be a domain name such as example.com, without scheme, path, port or address',
    });
    return z.NEVER;
  })
  .describe('Host name to send from; stored lowercase, internationalized names in their xn-- form');

export const AddDomainBody = z.object({ domain: DomainName });
export const DomainIdParams = z.object({ id: resourceId('DOMAIN_NOT_FOUND') });
export const ProjectIdParams = z.object({ projectId: z.uuid() });

export const DnsRecordResponse = z.object({
  type: z.literal('TXT'),
  name: z.string().describe('Fully qualified name of the record'),
  value: z.string(),
  purpose: z.enum(['DKIM', 'SPF', 'DMARC']).describe('Only DKIM gates verification; SPF and DMARC are recommended'),
  status: z.enum(['PENDING', 'VERIFIED', 'FAILED']).describe('FAILED: a record is published but does not match'),
});

export const DomainResponse = z.object({
  id: z.uuid(),
  projectId: z.uuid(),
  domain: z.string(),
  verified: z.boolean(),
  verifiedAt: z.iso.datetime().nullable(),
  lastCheckedAt: z.iso.datetime().nullable(),
  records: z.array(DnsRecordResponse),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
});
export type DomainResponse = z.infer<typeof DomainResponse>;
