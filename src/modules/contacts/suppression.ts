import type { EntityManager } from '@mikro-orm/postgresql';

/** Why a contact's address is suppressed: the reasons of the suppression list (decisions.md "Suppressions"). */
export type SuppressionReason = 'BOUNCE' | 'COMPLAINT';

export interface Suppression {
  reason: SuppressionReason;
  /** When the bounce or complaint that suppressed it happened. */
  since: Date;
}

/**
 * Which of these contacts are suppressed, and why (docs/bounces.md "Suppression"): a permanent bounce or a
 * complaint that no later subscription undid, the rule the delivery pump applies to marketing
 * (emails/delivery/claim.ts). The one place the contact pages and the bulk subscribe read it from; a
 * suppression list of its own would replace this query and nothing else.
 */
export async function suppressionsOf(em: EntityManager, projectId: string, ids: string[]): Promise<Map<string, Suppression>> {
  if (ids.length === 0) return new Map();
  const rows = await em.execute<Array<{ contact_id: string; name: string; created_at: Date }>>(
    `select distinct on (b."contact_id") b."contact_id", b."name", b."created_at"
     from events b
     where b."project_id" = ? and b."contact_id" in (select x::uuid from jsonb_array_elements_text(?::jsonb) x)
       and b."name" in ('email.complaint', 'email.bounce')
       and (b."name" = 'email.complaint' or b."data"->>'bounceType' = 'Permanent')
       and not exists (select 1 from events s where s."contact_id" = b."contact_id" and s."name" = 'contact.subscribed' and s."created_at" > b."created_at")
     order by b."contact_id", b."created_at" desc`,
    [projectId, JSON.stringify(ids)],
  );
  return new Map(
    rows.map((r) => [r.contact_id, { reason: r.name === 'email.complaint' ? 'COMPLAINT' : 'BOUNCE', since: new Date(r.created_at) }]),
  );
}
