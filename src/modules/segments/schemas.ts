import { z } from 'zod';
import { resourceId } from '../../http/resource-id';
import { offsetPageFields } from '../../http/offset-page';
import { ContactResponse } from '../contacts/schemas';
import { FilterTreeSchema, filterTreeInput } from '../filters/schemas';
import { SEGMENT_TYPES } from './entities';

export const SegmentIdParams = z.object({ id: resourceId('SEGMENT_NOT_FOUND') });

const Name = z.string().trim().min(1, 'name is required').max(100, 'name must be at most 100 characters');
const Description = z.string().max(500, 'description must be at most 500 characters');
const Condition = () => filterTreeInput().describe('Filter tree; required for DYNAMIC segments, ignored for STATIC ones');

export const CreateSegmentBody = z.object({
  name: Name,
  description: Description.nullish(),
  type: z.enum(SEGMENT_TYPES).default('DYNAMIC'),
  condition: Condition().optional(),
  trackMembership: z.boolean().default(false).describe('Emit segment.<slug>.entry and .exit events as contacts join and leave'),
});
export type CreateSegmentBody = z.infer<typeof CreateSegmentBody>;

export const UpdateSegmentBody = z.object({
  name: Name.optional(),
  description: Description.nullish().describe('null clears it'),
  condition: Condition().optional(),
  trackMembership: z.boolean().optional(),
});
export type UpdateSegmentBody = z.infer<typeof UpdateSegmentBody>;

export const SegmentResponse = z.object({
  id: z.uuid(),
  name: z.string(),
  description: z.string().nullable(),
  type: z.enum(SEGMENT_TYPES),
  condition: FilterTreeSchema.nullable(),
  trackMembership: z.boolean(),
  memberCount: z.number().int().describe('Cached count, updated on create, condition change, member changes, refresh and compute'),
  projectId: z.uuid(),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
});
export type SegmentResponse = z.infer<typeof SegmentResponse>;

export const SegmentContactsQuery = z.object(offsetPageFields);
export type SegmentContactsQuery = z.infer<typeof SegmentContactsQuery>;

export const SegmentContactsPage = z.object({
  data: z.array(ContactResponse),
  total: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
});

/** Like POST /contacts/lookup, a call takes a bounded list. */
export const MAX_MEMBER_EMAILS = 1000;
const Emails = z.array(z.email().max(320)).min(1, 'emails must not be empty').max(MAX_MEMBER_EMAILS);

export const AddMembersBody = z.object({
  emails: Emails,
  createMissing: z.boolean().default(false).describe('Create contacts for addresses the project does not have'),
  subscribed: z.boolean().default(true).describe('Subscription state of contacts created by createMissing'),
});
export type AddMembersBody = z.infer<typeof AddMembersBody>;

export const RemoveMembersBody = z.object({ emails: Emails });

export const AddMembersResponse = z.object({
  added: z.number().int().describe('Contacts that were not members before'),
  created: z.number().int().describe('Contacts created by createMissing'),
  notFound: z.array(z.string()).describe('Addresses with no contact, as sent'),
});

export const RemoveMembersResponse = z.object({ removed: z.number().int().describe('Contacts that were members') });

export const ComputeResponse = z.object({
  entered: z.number().int(),
  exited: z.number().int(),
  memberCount: z.number().int(),
});

export const ComputeRunning = z.object({
  running: z
    .string()
    .describe(
      "The computation's workflow (segment-compute:<id>), still running: it records its events when it ends; POST again to wait for it",
    ),
});

export const RefreshResponse = z.object({ memberCount: z.number().int() });

export const CountConditionBody = z.object({
  condition: Condition(),
  segmentId: z.uuid().optional().describe('The segment being edited, so that a condition naming it is refused as a cycle'),
});

export const CountConditionResponse = z.object({ memberCount: z.number().int().describe('Contacts the condition matches now') });
