import { defineSearchAttributeKey, SearchAttributeType } from '@temporalio/common';

/** Keys operators filter on in the Temporal Web UI. Temporal reserves `WorkflowId`, hence `AutomationId`. */
export const ProjectIdKey = defineSearchAttributeKey('ProjectId', SearchAttributeType.KEYWORD);
export const ContactIdKey = defineSearchAttributeKey('ContactId', SearchAttributeType.KEYWORD);
export const AutomationIdKey = defineSearchAttributeKey('AutomationId', SearchAttributeType.KEYWORD);
export const CampaignIdKey = defineSearchAttributeKey('CampaignId', SearchAttributeType.KEYWORD);
export const CurrentStepKey = defineSearchAttributeKey('CurrentStep', SearchAttributeType.KEYWORD);
/** When the scheduled emails of a timer are due (the end of their second): `SendAt < "2026-12-01T09:05:00Z"`. */
export const SendAtKey = defineSearchAttributeKey('SendAt', SearchAttributeType.DATETIME);

const CLI_TYPES = { [SearchAttributeType.KEYWORD]: 'Keyword', [SearchAttributeType.DATETIME]: 'Datetime' } as const;

export const SEARCH_ATTRIBUTES = [ProjectIdKey, ContactIdKey, AutomationIdKey, CampaignIdKey, CurrentStepKey, SendAtKey].map((key) => ({
  name: key.name,
  cliType: CLI_TYPES[key.type],
}));
