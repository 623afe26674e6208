import { sql, type FilterQuery } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { ApiError, conflict, notFound } from '../../http/errors';
import { assertVerifiedSender } from '../domains/sender';
import { Template } from './entities';
import { templateSyntaxProblems, type EmailContent } from './render';
import { MAX_NAME_LENGTH, type CreateTemplateBody, type ListTemplatesQuery, type UpdateTemplateBody } from './schemas';
import { collectUsage, type TemplateUsage, type TemplateUsageSource } from './usage';
import { containsPattern } from '../../db/keyset';
import { offsetOf } from '../../http/offset-page';

export async function listTemplates(
  em: EntityManager,
  projectId: string,
  { page, pageSize, type, search, sort, dir }: ListTemplatesQuery,
): Promise<{ templates: Template[]; total: number }> {
  const where: FilterQuery<Template> = { projectId, ...(type ? { type } : {}) };
  if (search) {
    const pattern = containsPattern(search);
    where.$or = [{ name: { $ilike: pattern } }, { description: { $ilike: pattern } }, { subject: { $ilike: pattern } }];
  }
  // Names sort the way people read them, not by code point (so "apple" sits beside "Apple").
  const sortKey = sort === 'name' ? sql.lower('name') : sort;
  const [templates, total] = await em.findAndCount(Template, where, {
    orderBy: [{ [sortKey]: dir }, { id: dir }],
    limit: pageSize,
    offset: offsetOf({ page, pageSize }),
  });
  return { templates, total };
}

/** A template of the project; another project's template is as absent as a missing one. */
export async function findTemplate(em: EntityManager, projectId: string, id: string): Promise<Template> {
  const template = await em.findOne(Template, { id, projectId });
  if (!template) throw notFound('Template', 'TEMPLATE_NOT_FOUND');
  return template;
}

/** A subject or body that Liquid cannot parse is refused when saved, naming the line and the reason. */
export function assertParses(content: Partial<EmailContent>): void {
  const problems = templateSyntaxProblems(content);
  if (problems.length === 0) return;
  throw new ApiError(422, 'VALIDATION_ERROR', `Template does not parse: ${problems[0]!.field} ${problems[0]!.message}`, {
    errors: problems.map((p) => ({ field: p.field, message: p.message, code: 'invalid_template' })),
    details: { problems: problems.map(({ field, line, reason }) => ({ field, line, reason })) },
    suggestion: 'Fix the Liquid syntax at the line named; see docs/templates.md for the notation.',
  });
}

export async function createTemplate(em: EntityManager, projectId: string, body: CreateTemplateBody): Promise<Template> {
  assertParses(body);
  await assertVerifiedSender(em, projectId, body.from);
  const template = em.create(Template, {
    projectId,
    name: body.name,
    description: body.description ?? null,
    subject: body.subject,
    body: body.body,
    text: body.text ?? null,
    from: body.from,
    fromName: body.fromName ?? null,
    replyTo: body.replyTo ?? null,
    type: body.type,
  });
  await em.flush();
  return template;
}

export async function updateTemplate(em: EntityManager, projectId: string, id: string, patch: UpdateTemplateBody): Promise<Template> {
  const template = await findTemplate(em, projectId, id);
  assertParses(patch);
  if (patch.from !== undefined) await assertVerifiedSender(em, projectId, patch.from);
  em.assign(template, Object.fromEntries(Object.entries(patch).filter(([, value]) => value !== undefined)));
  await em.flush();
  return template;
}

const COPY_SUFFIX = ' (Copy)';

/** A copy named "<name> (Copy)"; its sender was verified when the original was saved. */
export async function duplicateTemplate(em: EntityManager, projectId: string, id: string): Promise<Template> {
  const { name, description, subject, body, text, from, fromName, replyTo, type } = await findTemplate(em, projectId, id);
  const copy = em.create(Template, {
    projectId,
    name: `${name.slice(0, MAX_NAME_LENGTH - COPY_SUFFIX.length)}${COPY_SUFFIX}`,
    description,
    subject,
    body,
    text,
    from,
    fromName,
    replyTo,
    type,
  });
  await em.flush();
  return copy;
}

export async function templateUsage(
  em: EntityManager,
  sources: readonly TemplateUsageSource[],
  projectId: string,
  id: string,
): Promise<TemplateUsage> {
  await findTemplate(em, projectId, id);
  return collectUsage(sources, em, projectId, id);
}

/**
 * Workflow steps and signup forms (their confirmation email) send the template by reference at run time, so
 * deleting it while one uses it is refused (409). Campaigns carry their own copy of the content and do not block.
 */
export async function deleteTemplate(
  em: EntityManager,
  sources: readonly TemplateUsageSource[],
  projectId: string,
  id: string,
): Promise<void> {
  const template = await findTemplate(em, projectId, id);
  const { workflows, forms } = await collectUsage(sources, em, projectId, id);
  if (workflows.length > 0) {
    throw conflict('The template is used by workflow steps; remove it from those workflows first', { workflows });
  }
  if (forms.length > 0) {
    throw conflict('The template is the confirmation email of signup forms; choose another template for them first', { forms });
  }
  await em.remove(template).flush();
}
