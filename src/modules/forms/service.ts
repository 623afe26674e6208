import type { EntityManager } from '@mikro-orm/postgresql';
import { keysetPage, timestampKey } from '../../db/keyset';
import { decodeCursor, encodeCursor } from '../../http/cursor';
import { notFound, validationError } from '../../http/errors';
import { assertConfirmationTemplate } from '../consent/confirmation-email';
import type { TemplateUsageSource } from '../templates/usage';
import { assertProjectTopics } from '../topics/memberships';
import type { TopicUsageSource } from '../topics/usage';
import { embedHtml, formUrl } from './embed';
import { SignupForm } from './entities';
import { DEFAULT_FIELDS } from './fields';
import type { CreateFormBody, FormResponse, ListFormsQuery, UpdateFormBody } from './schemas';

const DEFAULT_SUBMIT_LABEL = 'Subscribe';

export const serializeForm = (publicUrl: string, f: SignupForm): FormResponse => ({
  id: f.id,
  name: f.name,
  title: f.title,
  fields: f.fields,
  topicIds: f.topicIds,
  doubleOptIn: f.doubleOptIn,
  confirmationTemplateId: f.confirmationTemplateId ?? null,
  redirectUrl: f.redirectUrl ?? null,
  successMessage: f.successMessage ?? null,
  submitLabel: f.submitLabel,
  url: formUrl(publicUrl, f.id),
  embedHtml: embedHtml(publicUrl, f),
  createdAt: f.createdAt.toISOString(),
  updatedAt: f.updatedAt.toISOString(),
});

const ORDERING = 'createdAt:desc';

/** The project's forms, newest first. */
export async function listForms(
  em: EntityManager,
  projectId: string,
  q: ListFormsQuery,
): Promise<{ forms: SignupForm[]; cursor: string | null; hasMore: boolean; total: number }> {
  const after = q.cursor ? decodeCursor(q.cursor, ORDERING) : undefined;
  const page = await keysetPage<{ id: string }>(em, {
    select: 'f."id"',
    from: 'signup_forms f',
    where: ['f."project_id" = ?'],
    params: [projectId],
    key: timestampKey('f."created_at"'),
    idColumn: 'f."id"',
    dir: 'desc',
    limit: q.limit,
    after,
  });
  const byId = new Map((await em.find(SignupForm, { id: { $in: page.rows.map((r) => r.id) } })).map((f) => [f.id, f]));
  return {
    forms: page.rows.flatMap((r) => byId.get(r.id) ?? []),
    cursor: page.next ? encodeCursor(ORDERING, page.next) : null,
    hasMore: page.next !== null,
    total: after ? 0 : await em.count(SignupForm, { projectId }),
  };
}

/** A form of the project; another project's form is as absent as a missing one. */
export async function findForm(em: EntityManager, projectId: string, id: string): Promise<SignupForm> {
  const form = await em.findOne(SignupForm, { id, projectId });
  if (!form) throw notFound('Form');
  return form;
}

const invalid = (field: string, message: string, code: string) => validationError([{ field, message, code }], `${field}: ${message}`);

type Settings = Omit<SignupForm, 'id' | 'createdAt' | 'updatedAt'>;

/**
 * What a form must hold before it is saved: its topics and its confirmation template are the project's,
 * double opt-in has a template to mail, and a signup ends on one thing (a redirect or a text).
 */
async function assertCoherent(em: EntityManager, form: Settings): Promise<void> {
  await assertProjectTopics(em, form.projectId, form.topicIds, (i) => `topicIds.${i}`);
  if (form.doubleOptIn && !form.confirmationTemplateId) {
    throw invalid('confirmationTemplateId', 'Double opt-in needs the template of its confirmation email', 'required');
  }
  if (form.confirmationTemplateId)
    await assertConfirmationTemplate(em, form.projectId, form.confirmationTemplateId, 'confirmationTemplateId');
  if (form.redirectUrl && form.successMessage) {
    throw invalid('redirectUrl', 'Give a redirect URL or a thank-you text, not both', 'conflict');
  }
}

export async function createForm(em: EntityManager, projectId: string, body: CreateFormBody): Promise<SignupForm> {
  const settings: Settings = {
    projectId,
    name: body.name,
    title: body.title ?? body.name,
    fields: body.fields ?? DEFAULT_FIELDS,
    topicIds: (body.topicIds ?? []).map((id) => id.toLowerCase()),
    doubleOptIn: body.doubleOptIn ?? false,
    confirmationTemplateId: body.confirmationTemplateId ?? null,
    redirectUrl: body.redirectUrl ?? null,
    successMessage: body.successMessage ?? null,
    submitLabel: body.submitLabel ?? DEFAULT_SUBMIT_LABEL,
  };
  await assertCoherent(em, settings);
  const form = em.create(SignupForm, settings);
  await em.flush();
  return form;
}

/** Only what is given changes (null clears an optional field); the result must still be coherent. */
export async function updateForm(em: EntityManager, projectId: string, id: string, body: UpdateFormBody): Promise<SignupForm> {
  const form = await findForm(em, projectId, id);
  const next: Settings = {
    projectId,
    name: body.name ?? form.name,
    title: body.title ?? form.title,
    fields: body.fields ?? form.fields,
    topicIds: body.topicIds?.map((t) => t.toLowerCase()) ?? form.topicIds,
    doubleOptIn: body.doubleOptIn ?? form.doubleOptIn,
    confirmationTemplateId: body.confirmationTemplateId !== undefined ? body.confirmationTemplateId : (form.confirmationTemplateId ?? null),
    redirectUrl: body.redirectUrl !== undefined ? body.redirectUrl : (form.redirectUrl ?? null),
    successMessage: body.successMessage !== undefined ? body.successMessage : (form.successMessage ?? null),
    submitLabel: body.submitLabel ?? form.submitLabel,
  };
  await assertCoherent(em, next);
  em.assign(form, { ...next, updatedAt: new Date() });
  await em.flush();
  return form;
}

/** Its pending confirmations keep working (they no longer name it). */
export async function deleteForm(em: EntityManager, projectId: string, id: string): Promise<void> {
  await em.remove(await findForm(em, projectId, id)).flush();
}

/** DELETE /topics/{id} is refused while a form joins the topic. */
export const formTopicUsage: TopicUsageSource = async (em, projectId, topicId) => {
  const rows = await em.execute<Array<{ id: string; name: string }>>(
    `select "id", "name" from signup_forms where "project_id" = ? and "topic_ids" @> ?::jsonb order by "name"`,
    [projectId, JSON.stringify([topicId])],
  );
  return { forms: rows };
};

/** GET /templates/{id}/usage and DELETE /templates/{id}: forms whose confirmation email the template is. */
export const formTemplateUsage: TemplateUsageSource = async (em, projectId, templateId) => {
  const forms = await em.find(
    SignupForm,
    { projectId, confirmationTemplateId: templateId },
    { fields: ['id', 'name'], orderBy: { name: 'asc' } },
  );
  return { forms: forms.map((f) => ({ id: f.id, name: f.name })) };
};
