import { User, UserToken } from '../modules/users/entities';
import { Project, ProjectMember } from '../modules/projects/entities';
import { Domain } from '../modules/domains/entities';
import { Contact, ContactField } from '../modules/contacts/entities';
import { Event } from '../modules/outbox/entities';
import { IdempotencyKey } from '../modules/idempotency/entities';
import { Segment, SegmentMember } from '../modules/segments/entities';
import { Template } from '../modules/templates/entities';
import { ProjectSuspension } from '../modules/security/entities';
import { Job } from '../modules/jobs/entities';
import { Email, EmailAttachment } from '../modules/emails/entities';
import { Campaign } from '../modules/campaigns/entities';
import { Automation, AutomationExecution, AutomationStep, AutomationTransition, AutomationVersion } from '../modules/automations/entities';
import { WebhookDelivery, WebhookEndpoint } from '../modules/webhooks/entities';
import { ContactTopic, Topic } from '../modules/topics/entities';
import { SignupForm } from '../modules/forms/entities';

export const entities = [
  User,
  UserToken,
  Project,
  ProjectMember,
  Domain,
  Contact,
  ContactField,
  Event,
  IdempotencyKey,
  Segment,
  SegmentMember,
  Template,
  ProjectSuspension,
  Job,
  Email,
  EmailAttachment,
  Campaign,
  Automation,
  AutomationStep,
  AutomationTransition,
  AutomationVersion,
  AutomationExecution,
  WebhookEndpoint,
  WebhookDelivery,
  Topic,
  ContactTopic,
  SignupForm,
];
