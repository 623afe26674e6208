import { maskSecret } from '../../crypto/keys';
import type { Project, Role } from './entities';
import type { ProjectResponse } from './schemas';

/** The secret key appears in full only when `fullSecret` is given: the response that creates or rotates it. */
export function serializeProject(p: Project, extra: { fullSecret?: string; role?: Role } = {}): ProjectResponse {
  return {
    id: p.id,
    name: p.name,
    public: p.publicKey,
    secret: extra.fullSecret ?? maskSecret(p.secretKeyHint),
    disabled: p.disabled,
    disabledReason: p.disabled ? (p.disabledReason ?? null) : null,
    trackingMode: p.trackingMode,
    emailRatePerSecond: p.emailRatePerSecond ?? null,
    timeZone: p.timeZone,
    frequencyCap:
      p.frequencyCapMax != null && p.frequencyCapDays != null ? { maxEmails: p.frequencyCapMax, windowDays: p.frequencyCapDays } : null,
    ...(extra.role ? { role: extra.role } : {}),
    createdAt: p.createdAt.toISOString(),
    updatedAt: p.updatedAt.toISOString(),
  };
}
