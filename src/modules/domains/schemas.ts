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

const Inbound = z
  .boolean()
  .describe('Take inbound mail for any address at the domain once it is verified (docs/smtp.md); adds the MX record');
export const AddDomainBody = z.object({ domain: DomainName, inbound: Inbound.default(false) });
export const UpdateDomainBody = z.object({ inbound: Inbound });
export const DomainIdParams = z.object({ id: resourceId('DOMAIN_NOT_FOUND') });
export const ProjectIdParams = z.object({ projectId: z.uuid() });

const RecordStatus = z.enum(['PENDING', 'VERIFIED', 'FAILED']).describe('FAILED: a record is published but does not match');
export const DnsRecordResponse = z.union([
  z.object({
    type: z.literal('TXT'),
    name: z.string().describe('Fully qualified name of the record'),
    value: z.string(),
    purpose: z.enum(['DKIM', 'SPF', 'DMARC']).describe('Only DKIM gates verification; SPF and DMARC are recommended'),
    status: RecordStatus,
  }),
  z.object({
    type: z.literal('MX'),
    name: z.string().describe('The domain'),
    value: z.string().describe('The inbound SMTP server (INBOUND_MX_HOST)'),
    priority: z.number().int(),
    purpose: z.literal('inbound').describe('Listed while the domain takes inbound mail'),
    status: RecordStatus,
  }),
]);

export const DomainResponse = z.object({
  id: z.uuid(),
  projectId: z.uuid(),
  domain: z.string(),
  verified: z.boolean(),
  inbound: z.boolean().describe('Takes inbound mail (docs/smtp.md)'),
  verifiedAt: z.iso.datetime().nullable(),
  lastCheckedAt: z.iso.datetime().nullable(),
  records: z.array(DnsRecordResponse),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
});
export type DomainResponse = z.infer<typeof DomainResponse>;
