import { z } from 'zod';
import type { Deps } from '../../deps';
import { requireProject } from '../../http/context';
import { forbidden } from '../../http/errors';
import { defineRoute, type RouteDef } from '../../http/route';
import { checkDomain } from './check';
import { AddDomainBody, DomainIdParams, DomainResponse, ProjectIdParams, UpdateDomainBody } from './schemas';
import { serializeDomain } from './serialize';
import { addDomain, deleteDomain, findDomain, listDomains, setInbound } from './service';

const tag = 'Domains';
const notFoundDoc = { 404: { description: 'DOMAIN_NOT_FOUND: no such domain in this project' } };

export function domainRoutes(deps: Deps): RouteDef[] {
  return [
    defineRoute({
      method: 'post',
      path: '/domains',
      tag,
      summary: 'Add a sender domain; returns the DNS records to create. Checked in the background every 5 minutes.',
      auth: 'secret',
      body: AddDomainBody,
      responses: {
        201: { description: 'The domain, pending, with its records', schema: DomainResponse },
        409: { description: 'CONFLICT: the project already has this domain' },
        422: { description: 'VALIDATION_ERROR: not a domain name' },
        503: { description: 'SERVICE_UNAVAILABLE: the background check could not be scheduled; nothing was added' },
      },
      handler: async (ctx, { body }) => {
        const domain = await addDomain(deps, ctx.state.em, requireProject(ctx).id, body.domain, body.inbound);
        ctx.status = 201;
        ctx.body = serializeDomain(domain);
      },
    }),
    defineRoute({
      method: 'get',
      path: '/domains/project/{projectId}',
      tag,
      summary: "Verified and pending domains of the caller's project, newest first",
      auth: 'secret',
      agent: { name: 'domains_list' },
      params: ProjectIdParams,
      responses: {
        200: { description: 'Domains', schema: z.array(DomainResponse) },
        403: { description: "FORBIDDEN: projectId is not the caller's project" },
      },
      handler: async (ctx, { params }) => {
        const project = requireProject(ctx);
        if (params.projectId !== project.id) throw forbidden('Domains of another project are not accessible with this key');
        ctx.body = (await listDomains(ctx.state.em, project.id)).map(serializeDomain);
      },
    }),
    defineRoute({
      method: 'get',
      path: '/domains/{id}',
      tag,
      summary: 'One domain with the status of each record as of the last check',
      auth: 'secret',
      params: DomainIdParams,
      responses: { 200: { description: 'The domain', schema: DomainResponse }, ...notFoundDoc },
      handler: async (ctx, { params }) => {
        ctx.body = serializeDomain(await findDomain(ctx.state.em, requireProject(ctx).id, params.id));
      },
    }),
    defineRoute({
      method: 'patch',
      path: '/domains/{id}',
      tag,
      summary: 'Turn inbound mail on or off for the domain (docs/smtp.md); on, its records list the MX record',
      auth: 'secret',
      params: DomainIdParams,
      body: UpdateDomainBody,
      responses: {
        200: { description: 'The domain', schema: DomainResponse },
        ...notFoundDoc,
        422: { description: 'VALIDATION_ERROR: inbound is missing or not a boolean' },
      },
      handler: async (ctx, { params, body }) => {
        ctx.body = serializeDomain(
          await setInbound(ctx.state.em, deps.config.INBOUND_MX_HOST, requireProject(ctx).id, params.id, body.inbound),
        );
      },
    }),
    defineRoute({
      method: 'get',
      path: '/domains/{id}/verify',
      tag,
      summary: 'Check the DNS records now; returns the domain with the outcome',
      auth: 'secret',
      params: DomainIdParams,
      responses: { 200: { description: 'The domain after the check', schema: DomainResponse }, ...notFoundDoc },
      handler: async (ctx, { params }) => {
        const domain = await findDomain(ctx.state.em, requireProject(ctx).id, params.id);
        ctx.body = serializeDomain(await checkDomain(ctx.state.em, deps.dns, domain));
      },
    }),
    defineRoute({
      method: 'delete',
      path: '/domains/{id}',
      tag,
      summary: 'Remove the domain and stop its background check; mail from it is refused afterwards',
      auth: 'secret',
      params: DomainIdParams,
      responses: { 204: { description: 'Removed' }, ...notFoundDoc },
      handler: async (ctx, { params }) => {
        await deleteDomain(deps, ctx.state.em, requireProject(ctx).id, params.id);
        ctx.status = 204;
      },
    }),
  ];
}
