import { z } from 'zod';
import { requireProject } from '../../src/http/context';
import { defineRoute, type Bucket, type RouteDef } from '../../src/http/route';
import type { TestProject } from '../helpers/fixtures';
import type { TestStack } from '../helpers/stack';

const Answer = z.object({ projectId: z.string() });

const probe = (path: string, bucket?: Bucket): RouteDef =>
  defineRoute({
    method: 'post',
    path,
    tag: 'Probe',
    summary: 'Answers with the caller’s project',
    auth: 'secret',
    bucket,
    body: z.object({ ok: z.literal(true) }),
    responses: { 200: { description: 'The project', schema: Answer } },
    handler: (ctx) => {
      ctx.body = { projectId: requireProject(ctx).id } satisfies z.infer<typeof Answer>;
    },
  });

/**
 * Project-scoped routes that only answer, mounted beside the API in rate-limit tests: they go through the
 * same pipeline (authentication, limiter, validation) as the resource routes, none of which exists yet.
 * `/_probe` draws from no bucket; `/_probe/<bucket>` draws from that bucket.
 */
export const probeRoutes: RouteDef[] = [
  probe('/_probe'),
  ...(['track', 'send', 'contacts'] as const).map((bucket) => probe(`/_probe/${bucket}`, bucket)),
];

export const callProbe = (stack: TestStack, project: TestProject, bucket?: Bucket) =>
  stack
    .http()
    .post(bucket ? `/_probe/${bucket}` : '/_probe')
    .set('Authorization', `Bearer ${project.secret}`)
    .send({ ok: true });

/** The RateLimit-* headers as numbers, or null when the response has none. */
export function limitHeaders(res: { headers: Record<string, string> }): { limit: number; remaining: number; reset: number } | null {
  const { 'ratelimit-limit': limit, 'ratelimit-remaining': remaining, 'ratelimit-reset': reset } = res.headers;
  if (limit === undefined && remaining === undefined && reset === undefined) return null;
  return { limit: Number(limit), remaining: Number(remaining), reset: Number(reset) };
}
