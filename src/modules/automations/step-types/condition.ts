import { asFilterField } from '../../filters/errors';
import { parseFilterTree } from '../../filters/resolve';
import { FilterTreeSchema, filterTreeInput } from '../../filters/schemas';
import { resolveForProject } from '../../filters/service';
import { filterFields } from '../../usage/filter-tree';
import type { Subject } from '../../usage/references';
import type { ApiStepType } from './step-type';

// references.ts lists the workflows' reference source, so only its types are imported here (no import cycle).
const filterField = (subject: Subject) => (subject.kind === 'field' ? subject.field : `event.${subject.name}`);

/**
 * A filter tree, checked against the project (strictly, with execution context: `event.<key>` value filters
 * read the execution context) so that a bad tree is a 400 naming the problem.
 */
export const condition: ApiStepType<'CONDITION'> = {
  config: filterTreeInput(),
  output: FilterTreeSchema,
  parse: (em, projectId, raw) =>
    asFilterField('config', async () => {
      const tree = parseFilterTree(raw);
      await resolveForProject(em, projectId, tree, { strict: true, context: true });
      return tree;
    }),
  references: (config, subject) => filterFields(config).includes(filterField(subject)),
};
