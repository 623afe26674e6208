import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { baseColumns } from '../../db/columns';

/** Which emails carry the open pixel and click redirects (docs/tracking.md). */
export const TRACKING_MODES = ['ENABLED', 'DISABLED', 'MARKETING_ONLY'] as const;
export type TrackingMode = (typeof TRACKING_MODES)[number];

export const Project = defineEntity({
  name: 'Project',
  tableName: 'projects',
  properties: {
    ...baseColumns,
    name: p.string(),
    publicKey: p.string().unique(),
    publicKeyDigest: p.string().unique(),
    secretKeyDigest: p.string().unique(),
    /** Last characters of the secret key, for the masked form shown after creation. */
    secretKeyHint: p.string(),
    disabled: p.boolean().default(false),
    /** Why the project was disabled; copied into its suspension history (see GET .../security). */
    disabledReason: p.text().nullable(),
    billingLimits: p.json<Record<string, number | null>>().default('{}'),
    /** Emails per second in each delivery lane; null is the deployment's EMAIL_RATE_PER_SECOND, 0 unlimited. */
    emailRatePerSecond: p.integer().nullable(),
    trackingMode: p.enum([...TRACKING_MODES]).default('ENABLED'),
  },
});
export type Project = InferEntity<typeof Project>;

export const ROLES = ['OWNER', 'ADMIN', 'MEMBER'] as const;
export type Role = (typeof ROLES)[number];

export const ProjectMember = defineEntity({
  name: 'ProjectMember',
  tableName: 'project_members',
  uniques: [{ properties: ['projectId', 'userId'] }],
  properties: {
    ...baseColumns,
    projectId: p.uuid(),
    userId: p.uuid().index(),
    role: p.enum([...ROLES]),
  },
});
export type ProjectMember = InferEntity<typeof ProjectMember>;
