import type { EntityManager } from '@mikro-orm/postgresql';
import { validationError } from '../../http/errors';
import { toFieldErrors } from '../../http/zod-issues';
import { asFilterField } from '../filters/errors';
import { parseFilterTree } from '../filters/resolve';
import { resolveForProject } from '../filters/service';
import { Template } from '../templates/entities';
import type { StepType } from './definition';
import { invalidStepConfig } from './errors';
import { STEP_CONFIGS } from './step-configs';

/**
 * A step's config as it is saved: well formed for its type (422 otherwise, naming the fields), and fitting
 * the project (400): a SEND_EMAIL template of this project, a CONDITION tree checked strictly against the
 * project's fields and segments, with `event.<key>` value filters reading the execution context.
 */
export async function checkedStepConfig(em: EntityManager, projectId: string, type: StepType, raw: unknown): Promise<Record<string, unknown>> {
  if (type === 'CONDITION') {
    return asFilterField('config', async () => {
      const tree = parseFilterTree(raw);
      await resolveForProject(em, projectId, tree, { strict: true, context: true });
      return tree as unknown as Record<string, unknown>;
    });
  }
  const parsed = STEP_CONFIGS[type].safeParse(raw ?? {}, { reportInput: true });
  if (!parsed.success) throw validationError(toFieldErrors(parsed.error, 'config'));
  const config = parsed.data as Record<string, unknown>;
  if (type === 'SEND_EMAIL' && (await em.count(Template, { id: config.templateId as string, projectId })) === 0) {
    throw invalidStepConfig('config.templateId', 'No template with this id in the project');
  }
  return config;
}
