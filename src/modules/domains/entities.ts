import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { baseColumns } from '../../db/columns';

export type RecordPurpose = 'DKIM' | 'SPF' | 'DMARC';
export type RecordStatus = 'PENDING' | 'VERIFIED' | 'FAILED';
export interface DnsRecordState {
  type: 'TXT';
  name: string;
  value: string;
  purpose: RecordPurpose;
  status: RecordStatus;
}

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
  },
});
export type Domain = InferEntity<typeof Domain>;
