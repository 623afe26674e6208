import type { RequestBody } from '../../api/types';
import { andAlso, fromTree, newTree, toTree, type ApiFilter, type Tree, type TreeDraft } from '../../filters/model';
import type { Campaign } from './status';
import { senderOf } from '../domains/sender';

export type CampaignBody = RequestBody<'/campaigns', 'post'>;
export type AudienceType = CampaignBody['audienceType'];
type CampaignType = NonNullable<CampaignBody['type']>;

export type WinnerBy = NonNullable<CampaignBody['abTest']>['winnerBy'];
export const MAX_VARIANTS = 4;

/** An A/B test as the form holds it (docs/campaigns.md "A/B tests"). */
export interface AbDraft {
  on: boolean;
  testPercent: string;
  waitMinutes: string;
  winnerBy: WinnerBy;
  variants: Array<{ subject: string; body: string; from: string; fromName: string }>;
}

export const emptyVariant = () => ({ subject: '', body: '', from: '', fromName: '' });
const emptyAb = (): AbDraft => ({
  on: false,
  testPercent: '20',
  waitMinutes: '240',
  winnerBy: 'OPENS',
  variants: [emptyVariant(), emptyVariant()],
});

/** What the compose form holds: text as typed, turned into the API's body on save. */
export interface Draft {
  name: string;
  templateId: string;
  subject: string;
  body: string;
  fromLocal: string;
  fromDomain: string;
  fromName: string;
  replyTo: string;
  type: CampaignType | '';
  audienceType: AudienceType;
  segmentId: string;
  condition: TreeDraft;
  /** A MARKETING campaign about a topic goes to its members only (docs/consent.md). */
  topicId: string;
  ab: AbDraft;
}

export const emptyDraft = (fromDomain = ''): Draft => ({
  name: '',
  templateId: '',
  subject: '',
  body: '',
  fromLocal: '',
  fromDomain,
  fromName: '',
  replyTo: '',
  type: '',
  audienceType: 'ALL',
  segmentId: '',
  condition: newTree(),
  topicId: '',
  ab: emptyAb(),
});

export function draftOf(c: Campaign): Draft {
  const sender = senderOf(c.from);
  return {
    name: c.name,
    templateId: c.templateId ?? '',
    subject: c.subject,
    body: c.body,
    fromLocal: sender.local,
    fromDomain: sender.domain,
    fromName: c.fromName ?? '',
    replyTo: c.replyTo ?? '',
    type: c.type,
    audienceType: c.audienceType,
    segmentId: c.segmentId ?? '',
    condition: c.audienceCondition ? fromTree(c.audienceCondition) : newTree(),
    topicId: c.topicId ?? '',
    ab: c.abTest
      ? {
          on: true,
          testPercent: String(c.abTest.testPercent),
          waitMinutes: String(c.abTest.waitMinutes),
          winnerBy: c.abTest.winnerBy,
          variants: c.abTest.variants.map((v) => ({
            subject: v.subject ?? '',
            body: v.body ?? '',
            from: v.from ?? '',
            fromName: v.fromName ?? '',
          })),
        }
      : emptyAb(),
  };
}

/** The form's A/B test as the API takes it: null when off; a field left empty is the campaign's. */
function abTestOf(ab: AbDraft): CampaignBody['abTest'] {
  if (!ab.on) return null;
  return {
    testPercent: Number(ab.testPercent),
    waitMinutes: Number(ab.waitMinutes),
    winnerBy: ab.winnerBy,
    variants: ab.variants.map((v) => ({
      subject: given(v.subject),
      body: given(v.body),
      from: given(v.from),
      fromName: given(v.fromName),
    })),
  };
}

const given = (text: string) => (text.trim() === '' ? undefined : text);

/** The FILTERED audience's tree as the API takes it (the filter builder's values are typed as their fields). */
export const audienceTree = (d: Draft) => toTree(d.condition, () => undefined);

const only = (filter: ApiFilter): Tree => ({ logic: 'AND', groups: [{ filters: [filter] }] });

/**
 * The draft's audience as one condition, for POST /segments/count to count while it is edited: a segment is
 * `memberOfSegment`, everyone is `email exists`, and a campaign for subscribed contacts adds that to every
 * group, as the API's count does (docs/campaigns.md "Content and audience"). Null until a segment is chosen.
 */
export function audienceCountTree(d: Draft, subscribedOnly: boolean): Tree | null {
  const audience =
    d.audienceType === 'FILTERED'
      ? audienceTree(d)
      : d.audienceType === 'SEGMENT'
        ? d.segmentId
          ? only({ field: `segment.${d.segmentId}`, operator: 'memberOfSegment' })
          : null
        : undefined;
  if (audience === null) return null;
  const subscribed: ApiFilter = { field: 'subscribed', operator: 'equals', value: true };
  if (!subscribedOnly) return audience ?? only({ field: 'email', operator: 'exists' });
  const marketing = audience ? andAlso(audience, subscribed) : only(subscribed);
  return d.topicId ? andAlso(marketing, { field: `topic.${d.topicId}`, operator: 'memberOfTopic' }) : marketing;
}

/**
 * The API's body: a field left empty is left out, so a template fills it and, without one, the API names
 * what is missing.
 */
export function bodyOf(d: Draft): CampaignBody {
  return {
    name: d.name,
    templateId: given(d.templateId) ?? null,
    subject: given(d.subject),
    body: given(d.body),
    from: given(d.fromLocal) ? `${d.fromLocal.trim()}@${d.fromDomain}` : undefined,
    fromName: given(d.fromName) ?? null,
    replyTo: given(d.replyTo) ?? null,
    type: d.type || undefined,
    audienceType: d.audienceType,
    segmentId: d.audienceType === 'SEGMENT' ? (given(d.segmentId) ?? null) : null,
    audienceCondition: d.audienceType === 'FILTERED' ? audienceTree(d) : undefined,
    topicId: given(d.topicId) ?? null,
    abTest: abTestOf(d.ab),
  };
}
