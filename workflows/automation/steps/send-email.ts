import type { SendEmailConfig } from '../definition';
import { finished, type WorkflowStep } from './step';

export const sendEmail: WorkflowStep<'SEND_EMAIL'> = {
  results: ['done'],
  detail: (config) => `template ${config.templateId}`,
  kind: 'quick',
  resultOf: finished,
  quietHours: (config: SendEmailConfig) => config.quietHours ?? null,
};
