import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { baseColumns } from '../../db/columns';

export type RecordPurpose = 'DKIM' | 'SPF' | 'DMARC';
export type RecordStatus = 'PENDING' | 'VERIFIED' | 'FAILED';
export interface TxtRecordState {
  type: 'TXT';
  name: string;
  value: string;
  purpose: RecordPurpose;
  status: RecordStatus;
}
/** Listed while the domain takes inbound mail (docs/smtp.md). */
export interface MxRecordState {
  type: 'MX';
  name: string;
  value: string;
  priority: number;
  purpose: 'inbound';
  status: RecordStatus;
}
export type DnsRecordState = TxtRecordState | MxRecordState;

export const Domain = defineEntity({
  name: 'Domain',
  tableName: 'domains',
  uniques: [{ properties: ['projectId', 'domain'] }],
  properties: {
    ...baseColumns,
    projectId: p.uuid().index(),
    domain: p.string(),
    selector: p.string(),
    dkimPublicKey: p.text(),
    /** AES-256-GCM ciphertext of the PEM private key (ENCRYPTION_KEY). */
    dkimPrivateKeyEncrypted: p.text(),
    verified: p.boolean().default(false),
    verifiedAt: p.datetime().nullable(),
    lastCheckedAt: p.datetime().nullable(),
    records: p.json<DnsRecordState[]>(),
    /** Takes inbound mail at the inbound SMTP server once verified (docs/smtp.md). */
    inbound: p.boolean().default(false),
  },
});
export type Domain = InferEntity<typeof Domain>;
