import type { FieldType } from '../contacts/entities';
import type { Test } from './comparisons';
import type { EventTest, Predicate, ResolvedTree, ValueTarget } from './resolve';
import { topicMemberSql } from '../topics/membership-sql';

/**
 * The SQL face of the filter engine: a resolved tree becomes a boolean expression over `contacts c`, with
 * `?` placeholders (knex style) and their values in order. Every predicate is two-valued (never NULL), so
 * that `not…` operators are the exact complements the in-memory face computes.
 */
export interface SqlCondition {
  sql: string;
  params: unknown[];
}

const COLUMNS = {
  email: 'lower(c.email)',
  subscribed: 'c.subscribed',
  createdAt: 'c.created_at',
  updatedAt: 'c.updated_at',
} as const;

/** Functions of migration 0006 that read a JSON value as a field type, NULL when it does not read. */
const READERS: Record<FieldType, string> = {
  string: 'pw_jsonb_text',
  number: 'pw_jsonb_number',
  boolean: 'pw_jsonb_boolean',
  date: 'pw_jsonb_timestamp',
};

const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** Marks a value's place in the text; the final pass turns marks into `?` in textual order. */
const MARK = /\u0001(\d+)\u0001/g;

class Compiler {
  readonly values: unknown[] = [];

  constructor(private readonly now: number) {}

  private bind(value: unknown): string {
    this.values.push(value);
    return `\u0001${this.values.length - 1}\u0001`;
  }

  /** Placeholders are positional, so parameters follow the order of their marks in the finished text. */
  finish(text: string): SqlCondition {
    const params: unknown[] = [];
    const sql = text.replace(MARK, (_m, i: string) => {
      params.push(this.values[Number(i)]);
      return '?';
    });
    return { sql, params };
  }

  private json(path: readonly string[]): string {
    return path.reduce((expr, key) => `${expr} -> ${this.bind(key)}::text`, 'c.data');
  }

  private since(ms: number): string {
    return this.bind(new Date(this.now - ms));
  }

  private operand(value: string | number | boolean, type: FieldType): string {
    return this.bind(type === 'date' && typeof value === 'number' ? new Date(value) : value);
  }

  private comparison(test: Test, type: FieldType, target: ValueTarget): string {
    if (test.op === 'exists') return target.kind === 'column' ? 'true' : `jsonb_typeof(${this.json(target.path)}) <> 'null'`;
    if (test.op === 'none') return 'false';
    const x = target.kind === 'column' ? COLUMNS[target.column] : `${READERS[type]}(${this.json(target.path)})`;
    switch (test.op) {
      case 'equals':
        return `${x} = ${this.operand(test.value, type)}`;
      case 'sameDay':
        return `(${x} at time zone 'UTC')::date = ${this.bind(isoDay(test.from))}::date`;
      case 'contains':
        return `strpos(${x}, ${this.operand(test.value, type)}) > 0`;
      case 'greaterThan':
        return `${x} > ${this.operand(test.value, type)}`;
      case 'lessThan':
        return `${x} < ${this.operand(test.value, type)}`;
      case 'greaterThanOrEqual':
        return `${x} >= ${this.operand(test.value, type)}`;
      case 'lessThanOrEqual':
        return `${x} <= ${this.operand(test.value, type)}`;
      case 'within':
        return `${x} >= ${this.since(test.ms)}`;
      case 'olderThan':
        return `${x} < ${this.since(test.ms)}`;
    }
  }

  private events(name: string, sinceMs?: number): string {
    const recent = sinceMs === undefined ? '' : ` and e.created_at >= ${this.since(sinceMs)}`;
    return `exists (select 1 from events e where e.contact_id = c.id and e.project_id = c.project_id and e.name = ${this.bind(name)}${recent})`;
  }

  private event(name: string, test: EventTest): string {
    if (test.op === 'ever') return this.events(name);
    if (test.op === 'within') return this.events(name, test.ms);
    return `(${this.events(name)} and not ${this.events(name, test.ms)})`;
  }

  private predicate(p: Predicate): string {
    const not = p.negate ? 'not ' : '';
    switch (p.kind) {
      case 'value':
        // Columns are NOT NULL, so their comparisons are two-valued already and stay index-friendly.
        return p.target.kind === 'column'
          ? `${not}(${this.comparison(p.test, p.type, p.target)})`
          : `${not}coalesce(${this.comparison(p.test, p.type, p.target)}, false)`;
      case 'event':
        return `${not}${this.event(p.name, p.test)}`;
      case 'segment':
        if (p.source.type === 'MISSING') return p.negate ? 'true' : 'false';
        if (p.source.type === 'DYNAMIC') return `${not}(${this.tree(p.source.tree)})`;
        return `${not}exists (select 1 from segment_members m where m.segment_id = ${this.bind(p.segmentId)} and m.contact_id = c.id)`;
      case 'topic':
        if (p.defaultIn === null) return p.negate ? 'true' : 'false';
        return `${not}(${topicMemberSql(`${this.bind(p.topicId)}::uuid`, 'c.id', p.defaultIn)})`;
      case 'context':
        throw new Error('execution-context filters are evaluated in memory, never in SQL');
    }
  }

  tree(tree: ResolvedTree): string {
    const groups = tree.groups.map((g) => {
      const parts = g.predicates.map((p) => this.predicate(p));
      if (g.conditions) parts.push(`(${this.tree(g.conditions)})`);
      return `(${parts.join(' and ')})`;
    });
    return groups.join(tree.logic === 'AND' ? ' and ' : ' or ');
  }
}

/** The tree as a condition on `contacts c`, with relative times measured from `now`. */
export function compileFilter(tree: ResolvedTree, now: Date): SqlCondition {
  const compiler = new Compiler(now.getTime());
  return compiler.finish(compiler.tree(tree));
}
