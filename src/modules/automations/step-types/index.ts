import type { EntityManager } from '@mikro-orm/postgresql';
import type { z } from 'zod';
import type { StepConfigs, StepType } from '../../../../workflows/automation/definition';
import { validationError } from '../../../http/errors';
import { toFieldErrors } from '../../../http/zod-issues';
import type { Subject } from '../../usage/references';
import { condition } from './condition';
import { delay } from './delay';
import { exit } from './exit';
import { sendEmail } from './send-email';
import { randomSplit } from './random-split';
import type { ApiStepType } from './step-type';
import { updateContact } from './update-contact';
import { waitForEvent } from './wait-for-event';
import { webhook } from './webhook';

/** Every step type's API side. A new type is one line here (and one in workflows/automation/steps/index.ts). */
const API_STEP_TYPES: { [T in StepType]: ApiStepType<T> } = {
  SEND_EMAIL: sendEmail,
  DELAY: delay,
  WAIT_FOR_EVENT: waitForEvent,
  CONDITION: condition,
  WEBHOOK: webhook,
  UPDATE_CONTACT: updateContact,
  EXIT: exit,
  RANDOM_SPLIT: randomSplit,
};

/** The step types, in the order the API lists them. */
export const STEP_TYPES = Object.keys(API_STEP_TYPES) as [StepType, ...StepType[]];

const apiStepType = (type: StepType): ApiStepType<StepType> => API_STEP_TYPES[type];

/** Each type's config as requests give it. */
export const STEP_CONFIGS = Object.fromEntries(STEP_TYPES.map((t) => [t, apiStepType(t).config])) as Record<StepType, z.ZodType>;

/** The same, as responses show them. */
export const STEP_CONFIG_OUTPUTS = Object.fromEntries(STEP_TYPES.map((t) => [t, apiStepType(t).output ?? apiStepType(t).config])) as Record<
  StepType,
  z.ZodType
>;

/**
 * A step's config as it is saved: well formed for its type (422 otherwise, naming the fields), and fitting
 * the project (400), as its type says.
 */
export async function checkedStepConfig(
  em: EntityManager,
  projectId: string,
  type: StepType,
  raw: unknown,
): Promise<Record<string, unknown>> {
  const stepType = apiStepType(type);
  let config: StepConfigs[StepType];
  if (stepType.parse) config = await stepType.parse(em, projectId, raw);
  else {
    const parsed = stepType.config.safeParse(raw ?? {}, { reportInput: true });
    if (!parsed.success) throw validationError(toFieldErrors(parsed.error, 'config'));
    config = parsed.data as StepConfigs[StepType];
  }
  await stepType.check?.(em, projectId, config);
  return config as unknown as Record<string, unknown>;
}

/**
 * SQL for when a waiting step moves on by itself (null when only an event moves it on), given SQL for the
 * step's type, its start and its config.
 */
export function resumesAtSql(type: string, started: string, config: string): string {
  const cases = STEP_TYPES.flatMap((t) => {
    const at = apiStepType(t).resumesAt?.(started, config);
    return at === undefined ? [] : [`when '${t}' then ${at}`];
  });
  return cases.length ? `case ${type} ${cases.join(' ')} end` : 'null';
}

/** Whether a stored step's config (checked when it was written) names the contact field or event. */
export const stepReferences = (type: StepType, config: Record<string, unknown>, subject: Subject): boolean =>
  apiStepType(type).references?.(config as unknown as StepConfigs[StepType], subject) ?? false;
