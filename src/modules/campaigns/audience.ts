import type { EntityManager } from '@mikro-orm/postgresql';
import { FilterError } from '../filters/errors';
import type { FilterTree } from '../filters/schemas';
import { resolveForProject } from '../filters/service';
import { compileFilter, type SqlCondition } from '../filters/sql';
import { suppressedSql } from '../suppressions/rules';
import { mailTopic, marketingConsentSql } from '../consent/rules';
import type { Campaign } from './entities';

export type Audience = Pick<Campaign, 'projectId' | 'type' | 'audienceType' | 'segmentId' | 'audienceCondition' | 'topicId'>;

/** A SEGMENT audience is the filter engine's `memberOfSegment`, which reads STATIC and DYNAMIC segments alike. */
const segmentTree = (segmentId: string): FilterTree => ({
  logic: 'AND',
  groups: [{ filters: [{ field: `segment.${segmentId}`, operator: 'memberOfSegment' }] }],
});

function audienceTree(audience: Audience): FilterTree | null {
  if (audience.audienceType === 'SEGMENT') return segmentTree(audience.segmentId!);
  if (audience.audienceType === 'FILTERED') return audience.audienceCondition ?? null;
  return null;
}

/**
 * Who a campaign goes to, as a condition on `contacts c` with relative times measured from `now`. The stored
 * tree resolves leniently: a custom field deleted since matches as absent, a deleted segment as empty.
 * Contacts that may receive marketing only (subscribed, confirmed, not snoozed, in the campaign's topic:
 * docs/consent.md "Who gets marketing"), except for TRANSACTIONAL campaigns (docs/campaigns.md "Content and
 * audience"); never an address the suppression list holds back from this kind of mail (docs/suppressions.md),
 * so that it is not among the recipients at all.
 */
export async function audienceCondition(em: EntityManager, audience: Audience, now: Date): Promise<SqlCondition> {
  const parts: string[] = [];
  const params: unknown[] = [];
  const tree = audienceTree(audience);
  if (tree) {
    const compiled = compileFilter(await resolveForProject(em, audience.projectId, tree), now);
    parts.push(`(${compiled.sql})`);
    params.push(...compiled.params);
  }
  if (audience.type !== 'TRANSACTIONAL') {
    const consent = marketingConsentSql('c', audience.topicId ? await mailTopic(em, audience.projectId, audience.topicId) : null);
    parts.push(consent.sql);
    params.push(...consent.params);
  }
  parts.push(`not ${suppressedSql('c."project_id"', 'c."email"', audience.type === 'MARKETING' ? 'true' : 'false')}`);
  return { sql: parts.join(' and '), params };
}

export async function countAudience(em: EntityManager, audience: Audience, now = new Date()): Promise<number> {
  const condition = await audienceCondition(em, audience, now);
  const [row] = await em.execute<Array<{ count: number }>>(
    `select count(*)::int as count from contacts c where c.project_id = ? and ${condition.sql}`,
    [audience.projectId, ...condition.params],
  );
  return row?.count ?? 0;
}

/**
 * The live count shown while a campaign is a DRAFT or SCHEDULED. A stored condition that no longer resolves
 * (segments edited into a cycle since) reaches nobody; sending it is refused with the reason.
 */
export async function liveAudienceCount(em: EntityManager, audience: Audience): Promise<number> {
  try {
    return await countAudience(em, audience);
  } catch (err) {
    if (err instanceof FilterError) return 0;
    throw err;
  }
}
