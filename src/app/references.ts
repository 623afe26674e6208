import type { ReferenceSource } from '../modules/usage/references';
import { segmentReferences } from '../modules/segments/usage';
import { campaignReferences } from '../modules/campaigns/usage';
import { workflowReferences } from '../modules/automations/usage';

/** Every resource that can reference a contact field or an event name (the /usage endpoints). */
export const referenceSources: readonly ReferenceSource[] = [segmentReferences, campaignReferences, workflowReferences];
