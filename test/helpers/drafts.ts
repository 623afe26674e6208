import type { EmailDraft } from '../../src/modules/emails/enqueue';

/** An email of the project to a seeded contact, as a producer hands it to enqueueEmails; `changes` set the rest. */
export const draftTo = (
  projectId: string,
  contact: { id: string; email: string },
  from: string,
  changes: Partial<EmailDraft> = {},
): EmailDraft => ({
  projectId,
  contactId: contact.id,
  to: { email: contact.email },
  from: { email: from },
  subject: 'S',
  html: '<p>x</p>',
  sourceType: 'CAMPAIGN',
  marketing: false,
  ...changes,
});
