/**
 * The `field` of every filter in a filter tree (docs/filters.md "Shape": `{ logic, groups: [{ filters,
 * conditions }] }`), read leniently: stored trees are not re-validated here, and a tree that does not have
 * that shape simply names no fields.
 */
export function filterFields(tree: unknown): string[] {
  const fields: string[] = [];
  const visitTree = (node: unknown) => {
    if (!isObject(node) || !Array.isArray(node.groups)) return;
    for (const group of node.groups) {
      if (!isObject(group)) continue;
      for (const filter of Array.isArray(group.filters) ? group.filters : []) {
        if (isObject(filter) && typeof filter.field === 'string') fields.push(filter.field);
      }
      visitTree(group.conditions);
    }
  };
  visitTree(tree);
  return fields;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
