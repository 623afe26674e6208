import type { Deps } from '../../deps';
import { requireProject } from '../../http/context';
import { defineRoute, type RouteDef } from '../../http/route';
import { JobAccepted } from '../jobs/schemas';
import { getJob, serializeJob } from '../jobs/service';
import { ImportForm, ImportJobParams, ImportJobStatus, ImportResult } from './schemas';
import { queueImport } from './service';
import { readCsvUpload } from './upload';

const tag = 'Contacts';

export function importRoutes(deps: Deps): RouteDef[] {
  return [
    defineRoute({
      method: 'post',
      path: '/contacts/import',
      tag,
      summary: 'Import contacts from a CSV (multipart field file, at most 5 MB); queued, poll the returned jobId',
      auth: 'secret',
      bucket: 'contacts',
      body: ImportForm,
      bodyType: 'none',
      responses: {
        202: { description: 'Queued', schema: JobAccepted },
        400: { description: 'BAD_REQUEST: no file, not CSV, or no email column; nothing was queued' },
        413: { description: 'PAYLOAD_TOO_LARGE: the file exceeds 5 MB; nothing was queued' },
        415: { description: 'UNSUPPORTED_MEDIA_TYPE: not a multipart upload' },
        503: { description: 'SERVICE_UNAVAILABLE: Temporal cannot be reached; nothing was queued' },
      },
      handler: async (ctx) => {
        const upload = await readCsvUpload(ctx);
        ctx.status = 202;
        ctx.body = { jobId: await queueImport(deps, ctx.state.em, requireProject(ctx).id, upload) };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/contacts/import/{jobId}',
      tag,
      summary: 'Poll an import job: state, progress and counts so far',
      auth: 'secret',
      params: ImportJobParams,
      responses: {
        200: { description: 'The job', schema: ImportJobStatus },
        404: { description: 'NOT_FOUND: no such import job in this project' },
      },
      handler: async (ctx, { params }) => {
        ctx.body = serializeJob(await getJob(ctx.state.em, requireProject(ctx).id, params.jobId, 'import'), ImportResult);
      },
    }),
  ];
}
