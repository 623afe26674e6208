import type { Deps } from '../../deps';
import { requireProject } from '../../http/context';
import { defineRoute, type RouteDef } from '../../http/route';
import { BULK_OPERATIONS, type BulkOperation } from '../../../workflows/jobs/ids';
import { JobAccepted } from '../jobs/schemas';
import { getJob, serializeJob } from '../jobs/service';
import { BulkBody, BulkJobParams, BulkJobStatus, BulkResult } from './schemas';
import { queueBulk } from './service';

const tag = 'Contacts';

const SUMMARIES: Record<BulkOperation, string> = {
  subscribe: 'Subscribe up to 1,000 contacts; each flip emits contact.subscribed. Queued, poll the returned jobId',
  unsubscribe: 'Unsubscribe up to 1,000 contacts; each flip emits contact.unsubscribed. Queued, poll the returned jobId',
  delete: 'Delete up to 1,000 contacts with their events. Queued, poll the returned jobId',
};

export function bulkRoutes(deps: Deps): RouteDef[] {
  const start = (operation: BulkOperation) =>
    defineRoute({
      method: 'post',
      path: `/contacts/bulk-${operation}`,
      tag,
      summary: SUMMARIES[operation],
      auth: 'secret',
      bucket: 'contacts',
      body: BulkBody,
      responses: {
        202: { description: 'Queued', schema: JobAccepted },
        422: { description: 'VALIDATION_ERROR: contactIds missing, empty, not UUIDs, or more than 1,000' },
        503: { description: 'SERVICE_UNAVAILABLE: Temporal cannot be reached; nothing was queued' },
      },
      handler: async (ctx, { body }) => {
        ctx.status = 202;
        ctx.body = { jobId: await queueBulk(deps, ctx.state.em, requireProject(ctx).id, operation, body.contactIds) };
      },
    });
  return [
    ...BULK_OPERATIONS.map(start),
    defineRoute({
      method: 'get',
      path: '/contacts/bulk/{jobId}',
      tag,
      summary: 'Poll a bulk job: state, progress and counts so far',
      auth: 'secret',
      params: BulkJobParams,
      responses: {
        200: { description: 'The job', schema: BulkJobStatus },
        404: { description: 'NOT_FOUND: no such bulk job in this project' },
      },
      handler: async (ctx, { params }) => {
        ctx.body = serializeJob(await getJob(ctx.state.em, requireProject(ctx).id, params.jobId, 'bulk'), BulkResult);
      },
    }),
  ];
}
