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
    /** IANA zone of local times of day when a contact has none of its own (DELAY `until`). */
    timeZone: p.text().default('UTC'),
    /** At most this many marketing emails per contact in any `frequencyCapDays` days (frequency-cap.ts); both null: no cap. */
    frequencyCapMax: p.integer().nullable(),
    frequencyCapDays: p.integer().nullable(),
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
    /** Made by invitation: it counts only once the user has proven the address (isActiveMember). */
    invited: p.boolean().default(false),
  },
});
export type ProjectMember = InferEntity<typeof ProjectMember>;

/**
 * Whether a membership grants access: one made by invitation waits until the invited user has proven they
 * control the address (verified it, or set a password from a mailed link), so that signing up with an invited
 * address, or holding an unverified account with it, grants nothing (docs/roles.md).
 */
export const isActiveMember = (member: Pick<ProjectMember, 'invited'>, user: { emailVerified: boolean }): boolean =>
  !member.invited || user.emailVerified;
