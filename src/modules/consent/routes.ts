import type { Deps } from '../../deps';
import { requireProject } from '../../http/context';
import { notFound } from '../../http/errors';
import { defineRoute, type RouteDef } from '../../http/route';
import { assertProjectTopics, changeTopics } from '../topics/memberships';
import { ConsentResponse, ContactIdParams, UpdateConsentBody } from './schemas';
import { clearSnooze, snoozeContact, tellSnoozeEnded } from './snooze';
import { consentOf } from './state';

const tag = 'Contacts';
const missing = { 404: { description: 'NOT_FOUND: no such contact in the project' } };

/** A contact's consent through the API (docs/consent.md "The contact's consent"). */
export function consentRoutes(deps: Deps): RouteDef[] {
  return [
    defineRoute({
      method: 'get',
      path: '/contacts/{id}/consent',
      tag,
      summary: "The contact's topics, double opt-in confirmation and snooze",
      auth: 'secret',
      params: ContactIdParams,
      responses: { 200: { description: "The contact's consent", schema: ConsentResponse }, ...missing },
      handler: async (ctx, { params }) => {
        const consent = await consentOf(ctx.state.em, requireProject(ctx).id, params.id);
        if (!consent) throw notFound('Contact');
        ctx.body = consent;
      },
    }),
    defineRoute({
      method: 'patch',
      path: '/contacts/{id}/consent',
      tag,
      summary: 'Join or leave topics, snooze marketing for a while or end a snooze; each change records its event',
      auth: 'secret',
      bucket: 'contacts',
      params: ContactIdParams,
      body: UpdateConsentBody,
      responses: {
        200: { description: "The contact's consent after the change", schema: ConsentResponse },
        ...missing,
        422: { description: "VALIDATION_ERROR: a bad field, or a topic that is not the project's (nothing is changed)" },
        503: { description: 'SERVICE_UNAVAILABLE: Temporal cannot be reached to start the snooze (nothing is changed)' },
      },
      handler: async (ctx, { params, body }) => {
        const ref = { projectId: requireProject(ctx).id, contactId: params.id };
        const ended = await ctx.state.em.transactional(async (tx) => {
          if (body.topics) {
            await assertProjectTopics(
              tx,
              ref.projectId,
              body.topics.map((t) => t.topicId),
              (i) => `topics.${i}.topicId`,
            );
            if (!(await changeTopics(tx, ref.projectId, ref.contactId, body.topics, 'api'))) throw notFound('Contact');
          }
          if (body.snooze === null) {
            const cleared = await clearSnooze(tx, ref, 'api');
            if (cleared === null) throw notFound('Contact');
            return cleared;
          }
          if (body.snooze !== undefined && !(await snoozeContact(tx, deps.temporal, ref, body.snooze, 'api'))) throw notFound('Contact');
          return false;
        });
        if (ended) await tellSnoozeEnded(deps, ref.contactId);
        const consent = await consentOf(ctx.state.em, ref.projectId, ref.contactId);
        if (!consent) throw notFound('Contact');
        ctx.body = consent;
      },
    }),
  ];
}
