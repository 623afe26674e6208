import type { Template } from './entities';
import type { MessageResponse, TemplateResponse } from './schemas';

type Message = Pick<Template, 'id' | 'name' | 'description' | 'subject' | 'body' | 'text' | 'from' | 'fromName' | 'replyTo' | 'type'>;

/** The message fields of a template, or of a campaign's copy of one. */
export const serializeMessage = (m: Message): MessageResponse => ({
  id: m.id,
  name: m.name,
  description: m.description ?? null,
  subject: m.subject,
  body: m.body,
  text: m.text ?? null,
  from: m.from,
  fromName: m.fromName ?? null,
  replyTo: m.replyTo ?? null,
  type: m.type,
});

export const serializeTemplate = (t: Template): TemplateResponse => ({
  ...serializeMessage(t),
  projectId: t.projectId,
  createdAt: t.createdAt.toISOString(),
  updatedAt: t.updatedAt.toISOString(),
});
