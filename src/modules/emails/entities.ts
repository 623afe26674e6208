import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { baseColumns } from '../../db/columns';

/** The billing category of an email (docs/billing.md "Limits"), and its delivery lane. */
export const SOURCE_TYPES = ['TRANSACTIONAL', 'CAMPAIGN', 'WORKFLOW'] as const;
export type SourceType = (typeof SOURCE_TYPES)[number];

/**
 * In the order an email moves through them: SCHEDULED (waiting for its sendAt) only ever becomes PENDING or
 * CANCELLED; FAILED and SUPPRESSED only ever follow PENDING; see status.ts.
 */
export const EMAIL_STATUSES = [
  'SCHEDULED',
  'PENDING',
  'SENT',
  'DELIVERED',
  'OPENED',
  'CLICKED',
  'BOUNCED',
  'COMPLAINED',
  'FAILED',
  'CANCELLED',
  'SUPPRESSED',
] as const;
export type EmailStatus = (typeof EMAIL_STATUSES)[number];

/** The stages a sent email reaches, each with its own timestamp (`sent_at`, ...), in the order its status moves through them (status.ts). */
export const DELIVERY_STAGES = ['SENT', 'DELIVERED', 'OPENED', 'CLICKED', 'BOUNCED', 'COMPLAINED', 'FAILED'] as const;
export type DeliveryStage = (typeof DELIVERY_STAGES)[number];

/** A recipient besides `to` (cc, bcc), as stored. */
export interface CopyRecipient {
  email: string;
  name: string | null;
}

export const DISPOSITIONS = ['attachment', 'inline'] as const;
export type Disposition = (typeof DISPOSITIONS)[number];

/** One message to one recipient, rendered when it was accepted (migration 0012 documents the columns). */
export const Email = defineEntity({
  name: 'Email',
  tableName: 'emails',
  properties: {
    ...baseColumns,
    projectId: p.uuid(),
    contactId: p.uuid().nullable(),
    toAddress: p.string(),
    toName: p.string().nullable(),
    cc: p.json<CopyRecipient[]>(),
    bcc: p.json<CopyRecipient[]>(),
    fromAddress: p.string(),
    fromName: p.string().nullable(),
    replyTo: p.string().nullable(),
    subject: p.text(),
    html: p.text().nullable(),
    text: p.text().nullable(),
    headers: p.json<Record<string, string>>(),
    tags: p.json<Record<string, string>>(),
    attachmentCount: p.integer(),
    sizeBytes: p.bigint('number'),
    templateId: p.uuid().nullable(),
    /** The topic a marketing email is about (docs/consent.md). */
    topicId: p.uuid().nullable(),
    campaignId: p.uuid().nullable(),
    workflowExecutionId: p.uuid().nullable(),
    workflowStepId: p.uuid().nullable(),
    sourceType: p.enum([...SOURCE_TYPES]),
    marketing: p.boolean(),
    /** To the sandbox's simulator domain: left out of reputation, analytics and billing (docs/security.md). */
    simulated: p.boolean().default(false),
    status: p.enum([...EMAIL_STATUSES]),
    /** When a SCHEDULED email leaves (or left); null for one sent at once. */
    scheduledAt: p.datetime().nullable(),
    /**
     * A SCHEDULED email's time to be released into the delivery queue, null in every other status: the index of
     * scheduled emails names it rather than `status`, so that an outcome changes no indexed column (migration 0162).
     */
    releaseAt: p.datetime().nullable(),
    sentAt: p.datetime().nullable(),
    deliveredAt: p.datetime().nullable(),
    openedAt: p.datetime().nullable(),
    clickedAt: p.datetime().nullable(),
    bouncedAt: p.datetime().nullable(),
    /** When a permanent bounce was reported (bouncedAt dates any bounce); the bounce rate counts these. */
    hardBouncedAt: p.datetime().nullable(),
    complainedAt: p.datetime().nullable(),
    failedAt: p.datetime().nullable(),
    error: p.text().nullable(),
    /** A message the SMTP relay accepted, sent as given (docs/smtp.md); null for the others. */
    relayedMessageId: p.uuid().nullable(),
    /** Delivery attempts so far; written with each outcome (the queue counts them while the email waits). */
    attempts: p.integer(),
  },
});
export type Email = InferEntity<typeof Email>;

export const EmailAttachment = defineEntity({
  name: 'EmailAttachment',
  tableName: 'email_attachments',
  properties: {
    emailId: p.uuid().primary(),
    position: p.smallint().primary(),
    filename: p.string(),
    contentType: p.string(),
    contentId: p.string().nullable(),
    disposition: p.enum([...DISPOSITIONS]),
    content: p.blob(),
  },
});
export type EmailAttachment = InferEntity<typeof EmailAttachment>;
