import { defineSearchAttributeKey, SearchAttributeType } from '@temporalio/common';

/** Keys operators filter on in the Temporal Web UI. Temporal reserves `WorkflowId`, hence `AutomationId`. */
export const ProjectIdKey = defineSearchAttributeKey('ProjectId', SearchAttributeType.KEYWORD);
export const ContactIdKey = defineSearchAttributeKey('ContactId', SearchAttributeType.KEYWORD);
export const AutomationIdKey = defineSearchAttributeKey('AutomationId', SearchAttributeType.KEYWORD);
export const CampaignIdKey = defineSearchAttributeKey('CampaignId', SearchAttributeType.KEYWORD);
export const CurrentStepKey = defineSearchAttributeKey('CurrentStep', SearchAttributeType.KEYWORD);

export const SEARCH_ATTRIBUTES = [ProjectIdKey, ContactIdKey, AutomationIdKey, CampaignIdKey, CurrentStepKey].map((key) => ({
  name: key.name,
  cliType: 'Keyword' as const,
}));
