import { z } from 'zod';
import type { SendEmailConfig } from '../../../../workflows/automation/definition';
import { Template } from '../../templates/entities';
import { Tags } from '../../emails/tags';
import { Topic } from '../../topics/entities';
import { invalidStepConfig } from '../errors';
import { LocalTime } from './limits';
import type { ApiStepType } from './step-type';

const SendEmail: z.ZodType<SendEmailConfig> = z
  .object({
    templateId: z.uuid().describe('A template of this project'),
    recipient: z
      .object({
        type: z.enum(['CONTACT', 'CUSTOM']),
        email: z.email().max(320).optional().describe('Required for CUSTOM'),
      })
      .optional()
      .describe("Default: the execution's contact"),
    tags: Tags.optional().describe("Carried by the step's emails and echoed by their events"),
    topicId: z
      .uuid()
      .optional()
      .describe(
        "A topic of the project: the email (from a MARKETING template) goes only to the topic's members, and its unsubscribe links leave the topic",
      ),
    quietHours: z
      .object({ from: LocalTime, to: LocalTime })
      .refine((q) => q.from !== q.to, { message: 'from and to must differ', path: ['to'] })
      .optional()
      .describe(
        "Local times (the contact's data.timezone, else the project's timeZone) between which the step waits instead of sending, until `to`",
      ),
    onCap: z
      .enum(['wait', 'skip'])
      .optional()
      .describe(
        "A MARKETING email to the contact over the project's frequencyCap: `wait` (default) holds the step until the cap allows it, `skip` goes on without the email",
      ),
  })
  .refine((c) => c.recipient?.type !== 'CUSTOM' || c.recipient.email !== undefined, {
    message: 'recipient.email is required when recipient.type is CUSTOM',
    path: ['recipient', 'email'],
  });

export const sendEmail: ApiStepType<'SEND_EMAIL'> = {
  config: SendEmail,
  async check(em, projectId, config) {
    if ((await em.count(Template, { id: config.templateId, projectId })) === 0) {
      throw invalidStepConfig('config.templateId', 'No template with this id in the project');
    }
    if (config.topicId !== undefined && (await em.count(Topic, { id: config.topicId, projectId })) === 0) {
      throw invalidStepConfig('config.topicId', 'No topic with this id in the project');
    }
  },
};
