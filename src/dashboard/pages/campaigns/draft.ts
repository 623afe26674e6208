import { ApiFailure } from '../../api/client';
import type { RequestBody } from '../../api/types';
import type { Campaign } from './status';

export type CampaignBody = RequestBody<'/campaigns', 'post'>;
export type AudienceType = CampaignBody['audienceType'];
type CampaignType = NonNullable<CampaignBody['type']>;

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
  condition: string;
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
  condition: '',
});

export function draftOf(c: Campaign): Draft {
  const at = c.from.lastIndexOf('@');
  return {
    name: c.name,
    templateId: c.templateId ?? '',
    subject: c.subject,
    body: c.body,
    fromLocal: at > 0 ? c.from.slice(0, at) : c.from,
    fromDomain: at > 0 ? c.from.slice(at + 1) : '',
    fromName: c.fromName ?? '',
    replyTo: c.replyTo ?? '',
    type: c.type,
    audienceType: c.audienceType,
    segmentId: c.segmentId ?? '',
    condition: c.audienceCondition ? JSON.stringify(c.audienceCondition, null, 2) : '',
  };
}

const given = (text: string) => (text.trim() === '' ? undefined : text);

/**
 * The API's body: a field left empty is left out, so a template fills it and, without one, the API names
 * what is missing. Only the condition's JSON syntax is checked here, since the API can only receive JSON.
 */
export function bodyOf(d: Draft): CampaignBody {
  let audienceCondition: CampaignBody['audienceCondition'];
  if (d.audienceType === 'FILTERED' && d.condition.trim() !== '') {
    try {
      audienceCondition = JSON.parse(d.condition) as CampaignBody['audienceCondition'];
    } catch (err) {
      const message = `Not valid JSON: ${err instanceof Error ? err.message : String(err)}`;
      throw new ApiFailure(422, 'VALIDATION_ERROR', 'The audience condition is not valid JSON', undefined, [
        { field: 'audienceCondition', message },
      ]);
    }
  }
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
    audienceCondition,
  };
}
