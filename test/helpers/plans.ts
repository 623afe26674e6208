/** A node of `explain (format json)`'s plan, with the fields tests read. */
export interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  'Index Cond'?: string;
  'Actual Rows'?: number;
  'Actual Loops'?: number;
  'Rows Removed by Filter'?: number;
  Plans?: PlanNode[];
}

/** Every node of a plan, the root first. */
export const nodesOf = (node: PlanNode): PlanNode[] => [node, ...(node.Plans ?? []).flatMap(nodesOf)];

/** A row of `explain (format json)`. */
export interface ExplainRow {
  'QUERY PLAN': Array<{ Plan: PlanNode }>;
}

/** Every node of the plan `explain (format json)` answered with. */
export const planNodes = (rows: ExplainRow[]): PlanNode[] => nodesOf(rows[0]!['QUERY PLAN'][0]!.Plan);

/** A statement written with knex's `?` placeholders, numbered for node-postgres (`$1`, `$2`, …). */
export function numbered(sql: string): string {
  let n = 0;
  return sql.replace(/\?/g, () => `$${++n}`);
}
