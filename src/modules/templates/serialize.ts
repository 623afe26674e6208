import type { Template } from './entities';
import type { TemplateResponse } from './schemas';

export const serializeTemplate = (t: Template): TemplateResponse => ({
  id: t.id,
  name: t.name,
  description: t.description ?? null,
  subject: t.subject,
  body: t.body,
  from: t.from,
  fromName: t.fromName ?? null,
  replyTo: t.replyTo ?? null,
  type: t.type,
  projectId: t.projectId,
  createdAt: t.createdAt.toISOString(),
  updatedAt: t.updatedAt.toISOString(),
});
