import { LockMode, sql, type FilterQuery } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { containsPattern } from '../../db/keyset';
import { ApiError, conflict, notFound, validationError } from '../../http/errors';
import { assertVerifiedSender } from '../domains/sender';
import { asFilterField } from '../filters/errors';
import { parseFilterTree } from '../filters/resolve';
import type { FilterTree } from '../filters/schemas';
import { resolveForProject } from '../filters/service';
import { Segment } from '../segments/entities';
import { assertParses, findTemplate } from '../templates/service';
import { assertProjectTopics } from '../topics/memberships';
import { Campaign, type AbTest, type CampaignStatus } from './entities';
import { MAX_NAME_LENGTH, type CampaignBody, type ListCampaignsQuery } from './schemas';
import { offsetOf } from '../../http/offset-page';

export async function listCampaigns(
  em: EntityManager,
  projectId: string,
  { page, pageSize, status, search, sort, dir }: ListCampaignsQuery,
): Promise<{ campaigns: Campaign[]; total: number }> {
  const where: FilterQuery<Campaign> = { projectId, ...(status ? { status } : {}) };
  if (search) {
    const pattern = containsPattern(search);
    where.$or = [{ name: { $ilike: pattern } }, { subject: { $ilike: pattern } }, { from: { $ilike: pattern } }];
  }
  // Names sort the way people read them, not by code point (so "apple" sits beside "Apple").
  const sortKey = sort === 'name' ? sql.lower('name') : sort;
  const [campaigns, total] = await em.findAndCount(Campaign, where, {
    orderBy: [{ [sortKey]: dir }, { id: dir }],
    limit: pageSize,
    offset: offsetOf({ page, pageSize }),
  });
  return { campaigns, total };
}

/** A campaign of the project; another project's campaign is as absent as a missing one. */
export async function findCampaign(em: EntityManager, projectId: string, id: string, lock?: LockMode): Promise<Campaign> {
  const campaign = await em.findOne(Campaign, { id, projectId }, lock ? { lockMode: lock } : {});
  if (!campaign) throw notFound('Campaign', 'CAMPAIGN_NOT_FOUND');
  return campaign;
}

/** The campaign row locked for a change that depends on its status; call inside a transaction. */
export const lockCampaign = (tx: EntityManager, projectId: string, id: string) =>
  findCampaign(tx, projectId, id, LockMode.PESSIMISTIC_WRITE);

export function assertStatus(campaign: Campaign, allowed: readonly CampaignStatus[], action: string): void {
  if (allowed.includes(campaign.status)) return;
  throw conflict(`A ${campaign.status} campaign cannot be ${action}; only ${allowed.join(' or ')} campaigns can`, {
    status: campaign.status,
  });
}

type Content = Pick<Campaign, 'subject' | 'body' | 'text' | 'from' | 'fromName' | 'replyTo' | 'type' | 'templateId'>;
type Audience = Pick<Campaign, 'audienceType' | 'segmentId' | 'audienceCondition' | 'topicId'>;

const unknownReference = (field: string, message: string) =>
  validationError([{ field, message, code: 'not_found' }], `${field}: ${message}`);

/** The body's content, with what it leaves out taken from its template; Liquid must parse, the sender be verified. */
async function checkedContent(em: EntityManager, projectId: string, body: CampaignBody): Promise<Content> {
  const template = body.templateId
    ? await findTemplate(em, projectId, body.templateId).catch((err: unknown) => {
        if (err instanceof ApiError && err.status === 404) throw unknownReference('templateId', 'No such template in this project');
        throw err;
      })
    : null;
  // The schema requires subject, body and from unless a template supplies them.
  const content: Content = {
    subject: body.subject ?? template!.subject,
    body: body.body ?? template!.body,
    text: body.text !== undefined ? body.text : (template?.text ?? null),
    from: body.from ?? template!.from,
    fromName: body.fromName !== undefined ? body.fromName : (template?.fromName ?? null),
    replyTo: body.replyTo !== undefined ? body.replyTo : (template?.replyTo ?? null),
    type: body.type ?? template?.type ?? 'MARKETING',
    templateId: template?.id ?? null,
  };
  assertParses(content);
  await assertVerifiedSender(em, projectId, content.from);
  return content;
}

/**
 * A SEGMENT audience must name a segment of this project; a FILTERED one a tree the filter engine accepts
 * against what the project knows (docs/filters.md: a 400 naming the field or operator).
 */
async function checkedAudience(em: EntityManager, projectId: string, body: CampaignBody, type: Campaign['type']): Promise<Audience> {
  const topicId = await checkedTopic(em, projectId, body.topicId ?? null, type);
  return { ...(await checkedRecipients(em, projectId, body)), topicId };
}

/** A campaign about a topic is MARKETING and names a topic of the project (docs/consent.md). */
async function checkedTopic(em: EntityManager, projectId: string, topicId: string | null, type: Campaign['type']): Promise<string | null> {
  if (topicId === null) return null;
  if (type !== 'MARKETING') {
    throw validationError(
      [{ field: 'topicId', message: 'Only a MARKETING campaign can be about a topic', code: 'invalid' }],
      'topicId: Only a MARKETING campaign can be about a topic',
    );
  }
  await assertProjectTopics(em, projectId, [topicId], () => 'topicId');
  return topicId.toLowerCase();
}

async function checkedRecipients(em: EntityManager, projectId: string, body: CampaignBody): Promise<Omit<Audience, 'topicId'>> {
  if (body.audienceType === 'SEGMENT') {
    if (!(await em.count(Segment, { id: body.segmentId!, projectId }))) {
      throw unknownReference('segmentId', 'No such segment in this project');
    }
    return { audienceType: 'SEGMENT', segmentId: body.segmentId!, audienceCondition: null };
  }
  if (body.audienceType === 'FILTERED') {
    return asFilterField('audienceCondition', async () => {
      const tree: FilterTree = parseFilterTree(body.audienceCondition);
      await resolveForProject(em, projectId, tree, { strict: true });
      return { audienceType: 'FILTERED', segmentId: null, audienceCondition: tree };
    });
  }
  return { audienceType: 'ALL', segmentId: null, audienceCondition: null };
}

/** An A/B test's variants: Liquid that parses and senders on verified domains, each named by its place. */
async function checkedAbTest(em: EntityManager, projectId: string, body: CampaignBody): Promise<AbTest | null> {
  const ab = body.abTest ?? null;
  if (ab === null) return null;
  for (const [i, variant] of ab.variants.entries()) {
    try {
      assertParses({ subject: variant.subject, body: variant.body });
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      const field = `abTest.variants[${i}].`;
      throw new ApiError(err.status, err.code, `${field}${err.message.replace('Template does not parse: ', '')}`, {
        ...err.extra,
        errors: err.extra.errors?.map((e) => ({ ...e, field: `${field}${e.field}` })),
      });
    }
    if (variant.from !== undefined) await assertVerifiedSender(em, projectId, variant.from);
  }
  return { variants: ab.variants, testPercent: ab.testPercent, waitMinutes: ab.waitMinutes, winnerBy: ab.winnerBy };
}

async function fields(em: EntityManager, projectId: string, body: CampaignBody) {
  const content = await checkedContent(em, projectId, body);
  return {
    name: body.name,
    description: body.description ?? null,
    tags: body.tags ?? {},
    ...content,
    abTest: await checkedAbTest(em, projectId, body),
    ...(await checkedAudience(em, projectId, body, content.type)),
  };
}

export async function createCampaign(em: EntityManager, projectId: string, body: CampaignBody): Promise<Campaign> {
  const campaign = em.create(Campaign, {
    projectId,
    ...(await fields(em, projectId, body)),
    status: 'DRAFT',
    scheduledFor: null,
    sendId: null,
    sentAt: null,
  });
  await em.flush();
  return campaign;
}

/** PUT: every field as the body says (left-out optional fields are cleared); only DRAFT or SCHEDULED. */
export async function replaceCampaign(em: EntityManager, projectId: string, id: string, body: CampaignBody): Promise<Campaign> {
  return em.transactional(async (tx) => {
    const campaign = await lockCampaign(tx, projectId, id);
    assertStatus(campaign, ['DRAFT', 'SCHEDULED'], 'edited');
    tx.assign(campaign, await fields(tx, projectId, body));
    return campaign;
  });
}

/** Refused while SCHEDULED or SENDING (cancel first); the emails of a sent campaign stay. */
export async function deleteCampaign(em: EntityManager, projectId: string, id: string): Promise<void> {
  await em.transactional(async (tx) => {
    const campaign = await lockCampaign(tx, projectId, id);
    if (campaign.status === 'SCHEDULED' || campaign.status === 'SENDING') {
      throw conflict(`The campaign is ${campaign.status}; cancel it before deleting it`, { status: campaign.status });
    }
    tx.remove(campaign);
  });
}

const COPY_SUFFIX = ' (Copy)';

/** A new DRAFT with the same content and audience, named "<name> (Copy)". */
export async function duplicateCampaign(em: EntityManager, projectId: string, id: string): Promise<Campaign> {
  const source = await findCampaign(em, projectId, id);
  const copy = em.create(Campaign, {
    projectId,
    name: `${source.name.slice(0, MAX_NAME_LENGTH - COPY_SUFFIX.length)}${COPY_SUFFIX}`,
    description: source.description,
    subject: source.subject,
    body: source.body,
    text: source.text,
    tags: source.tags,
    from: source.from,
    fromName: source.fromName,
    replyTo: source.replyTo,
    type: source.type,
    templateId: source.templateId,
    audienceType: source.audienceType,
    segmentId: source.segmentId,
    audienceCondition: source.audienceCondition,
    topicId: source.topicId,
    abTest: source.abTest ?? null,
    status: 'DRAFT',
    scheduledFor: null,
    sendId: null,
    sentAt: null,
  });
  await em.flush();
  return copy;
}
