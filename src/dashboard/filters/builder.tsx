import {
  COLUMNS,
  EMAIL_ACTIVITIES,
  MAX_DEPTH,
  OPERATOR_LABELS,
  UNITS,
  newFilter,
  newGroup,
  newTree,
  operatorsFor,
  valueShape,
  type FieldKind,
  type FieldType,
  type FilterDraft,
  type GroupDraft,
  type Logic,
  type TreeDraft,
  type Unit,
} from './model';
import './filters.css';

/**
 * What the project offers to filter on: its custom fields with their types, event names, other segments and topics;
 * and, where the filter runs with an execution context (a CONDITION step), the known keys of event data
 * (`event.<key>`), which value operators read from that context. Without `context` none is offered.
 */
export interface FilterCatalog {
  fields: Array<{ field: string; type: FieldType }>;
  events: string[];
  segments: Array<{ id: string; name: string }>;
  topics: Array<{ id: string; name: string }>;
  context?: Array<{ field: string; type: FieldType }>;
}

const OTHER_DATA = '__data';
const OTHER_EVENT = '__event';
const OTHER_CONTEXT = '__context';
/** A context key's option: the same `event.<key>` may also name an event. */
const CONTEXT = 'context:';

function kindOf(filter: FilterDraft, catalog: FilterCatalog): FieldKind {
  const { field, valueType } = filter;
  const column = COLUMNS.find((c) => c.field === field);
  if (column) return { kind: 'value', type: column.type };
  if (field.startsWith('data.')) return { kind: 'value', type: catalog.fields.find((f) => f.field === field)?.type ?? valueType };
  if (field.startsWith('segment.')) return { kind: 'segment' };
  if (field.startsWith('topic.')) return { kind: 'topic' };
  if (filter.context && catalog.context) return { kind: 'value', type: catalog.context.find((f) => f.field === field)?.type ?? valueType };
  return { kind: 'event' };
}

/**
 * The filter after a change, with an operator its field takes, a value its operator can read, and the type
 * its value is sent as (the field's, so that the tree needs no catalog to be sent).
 */
function settle(f: FilterDraft, catalog: FilterCatalog): FilterDraft {
  const kind = kindOf(f, catalog);
  const operators = operatorsFor(kind);
  const operator = operators.includes(f.operator) ? f.operator : operators[0]!;
  const boolean = kind.kind === 'value' && kind.type === 'boolean' && valueShape(operator) === 'typed';
  const value = boolean && f.value !== 'true' && f.value !== 'false' ? 'true' : f.value;
  return { ...f, operator, value, valueType: kind.kind === 'value' ? kind.type : f.valueType };
}

function TypeChoice({ filter, onChange }: { filter: FilterDraft; onChange: (f: FilterDraft) => void }) {
  return (
    <select
      aria-label="Compare as"
      value={filter.valueType}
      onChange={(e) => onChange({ ...filter, valueType: e.currentTarget.value as FieldType })}
    >
      <option value="string">text</option>
      <option value="number">number</option>
      <option value="boolean">true/false</option>
      <option value="date">date</option>
    </select>
  );
}

/** The option a filter's field shows as chosen: a known name, or one of the "another…" entries. */
function selectedOption(filter: FilterDraft, catalog: FilterCatalog): string {
  const { field } = filter;
  if (filter.context && catalog.context) return catalog.context.some((c) => c.field === field) ? `${CONTEXT}${field}` : OTHER_CONTEXT;
  const known =
    COLUMNS.some((c) => c.field === field) ||
    catalog.fields.some((f) => f.field === field) ||
    EMAIL_ACTIVITIES.some((e) => e.field === field) ||
    catalog.events.some((name) => `event.${name}` === field) ||
    catalog.segments.some((s) => `segment.${s.id}` === field) ||
    catalog.topics.some((t) => `topic.${t.id}` === field);
  return known ? field : field.startsWith('data.') ? OTHER_DATA : OTHER_EVENT;
}

function FieldChoice({ filter, catalog, onChange }: { filter: FilterDraft; catalog: FilterCatalog; onChange: (f: FilterDraft) => void }) {
  const field = filter.field;
  const selected = selectedOption(filter, catalog);
  const choose = (value: string) => {
    const context = value === OTHER_CONTEXT || value.startsWith(CONTEXT);
    const next = value === OTHER_DATA ? 'data.' : value === OTHER_EVENT || value === OTHER_CONTEXT ? 'event.' : value.replace(CONTEXT, '');
    onChange({ ...filter, field: next, context, value: '' });
  };
  return (
    <>
      <select aria-label="Field" value={selected} onChange={(e) => choose(e.currentTarget.value)}>
        <optgroup label="Contact">
          {COLUMNS.map((c) => (
            <option key={c.field} value={c.field}>
              {c.label}
            </option>
          ))}
        </optgroup>
        <optgroup label="Custom fields">
          {catalog.fields.map((f) => (
            <option key={f.field} value={f.field}>
              {f.field.slice('data.'.length)} ({f.type})
            </option>
          ))}
          <option value={OTHER_DATA}>Another custom field…</option>
        </optgroup>
        <optgroup label="Email activity">
          {EMAIL_ACTIVITIES.map((e) => (
            <option key={e.field} value={e.field}>
              {e.label}
            </option>
          ))}
        </optgroup>
        <optgroup label="Events">
          {catalog.events.map((name) => (
            <option key={name} value={`event.${name}`}>
              Event {name}
            </option>
          ))}
          <option value={OTHER_EVENT}>Another event…</option>
        </optgroup>
        {catalog.context ? (
          <optgroup label="Execution context (event data)">
            {catalog.context.map((c) => (
              <option key={c.field} value={`${CONTEXT}${c.field}`}>
                Context {c.field.slice('event.'.length)} ({c.type})
              </option>
            ))}
            <option value={OTHER_CONTEXT}>Another context key…</option>
          </optgroup>
        ) : null}
        {catalog.segments.length > 0 ? (
          <optgroup label="Segments">
            {catalog.segments.map((s) => (
              <option key={s.id} value={`segment.${s.id}`}>
                Segment {s.name}
              </option>
            ))}
          </optgroup>
        ) : null}
        {catalog.topics.length > 0 ? (
          <optgroup label="Topics">
            {catalog.topics.map((t) => (
              <option key={t.id} value={`topic.${t.id}`}>
                Topic {t.name}
              </option>
            ))}
          </optgroup>
        ) : null}
      </select>
      {selected === OTHER_DATA ? (
        <>
          <input
            aria-label="Custom field path"
            placeholder="plan or profile.tier"
            value={field.slice('data.'.length)}
            onInput={(e) => onChange({ ...filter, field: `data.${e.currentTarget.value}` })}
          />
          <TypeChoice filter={filter} onChange={onChange} />
        </>
      ) : null}
      {selected === OTHER_CONTEXT ? (
        <>
          <input
            aria-label="Context key"
            placeholder="plan or order.total"
            value={field.slice('event.'.length)}
            onInput={(e) => onChange({ ...filter, field: `event.${e.currentTarget.value}` })}
          />
          <TypeChoice filter={filter} onChange={onChange} />
        </>
      ) : null}
      {selected === OTHER_EVENT ? (
        <input
          aria-label="Event name"
          placeholder="signed_up"
          value={field.slice('event.'.length)}
          onInput={(e) => onChange({ ...filter, field: `event.${e.currentTarget.value}` })}
        />
      ) : null}
    </>
  );
}

function ValueInput({ filter, type, onChange }: { filter: FilterDraft; type: FieldType | null; onChange: (f: FilterDraft) => void }) {
  const shape = valueShape(filter.operator);
  const set = (value: string) => onChange({ ...filter, value });
  if (shape === 'none') return null;
  if (shape === 'duration') {
    return (
      <>
        <input aria-label="Amount" type="number" min={1} value={filter.value} onInput={(e) => set(e.currentTarget.value)} />
        <select aria-label="Unit" value={filter.unit} onChange={(e) => onChange({ ...filter, unit: e.currentTarget.value as Unit })}>
          {UNITS.map((u) => (
            <option key={u.value} value={u.value}>
              {u.label}
            </option>
          ))}
        </select>
      </>
    );
  }
  if (type === 'boolean') {
    return (
      <select aria-label="Value" value={filter.value} onChange={(e) => set(e.currentTarget.value)}>
        <option value="true">true</option>
        <option value="false">false</option>
      </select>
    );
  }
  const onInput = (e: { currentTarget: HTMLInputElement }) => set(e.currentTarget.value);
  if (type === 'number') return <input aria-label="Value" type="number" value={filter.value} onInput={onInput} />;
  if (type === 'date') return <input aria-label="Value" type="date" value={filter.value} onInput={onInput} />;
  return <input aria-label="Value" type="text" value={filter.value} onInput={onInput} />;
}

function FilterRow({
  label,
  filter,
  catalog,
  onChange,
  onRemove,
}: {
  label: string;
  filter: FilterDraft;
  catalog: FilterCatalog;
  onChange: (f: FilterDraft) => void;
  onRemove: (() => void) | null;
}) {
  const kind = kindOf(filter, catalog);
  const change = (f: FilterDraft) => onChange(settle(f, catalog));
  return (
    <div class="filter-row" role="group" aria-label={label}>
      <FieldChoice filter={filter} catalog={catalog} onChange={change} />
      <select
        aria-label="Operator"
        value={filter.operator}
        onChange={(e) => change({ ...filter, operator: e.currentTarget.value as FilterDraft['operator'] })}
      >
        {operatorsFor(kind).map((op) => (
          <option key={op} value={op}>
            {OPERATOR_LABELS[op]}
          </option>
        ))}
      </select>
      <ValueInput filter={filter} type={kind.kind === 'value' ? kind.type : null} onChange={change} />
      {onRemove ? (
        <button type="button" class="link" aria-label={`Remove ${label.toLowerCase()}`} onClick={onRemove}>
          Remove
        </button>
      ) : null}
    </div>
  );
}

function GroupEditor({
  label,
  group,
  depth,
  catalog,
  onChange,
  onRemove,
}: {
  label: string;
  group: GroupDraft;
  depth: number;
  catalog: FilterCatalog;
  onChange: (g: GroupDraft) => void;
  onRemove: (() => void) | null;
}) {
  const setFilter = (i: number, f: FilterDraft) => onChange({ ...group, filters: group.filters.map((x, j) => (j === i ? f : x)) });
  const removable = group.filters.length > 1 || group.conditions !== undefined;
  return (
    <div class="filter-group" role="group" aria-label={label}>
      <div class="filter-group-head">
        <strong>{label}</strong>
        <span class="muted">every condition must hold</span>
        {onRemove ? (
          <button type="button" class="link" aria-label={`Remove ${label.toLowerCase()}`} onClick={onRemove}>
            Remove group
          </button>
        ) : null}
      </div>
      {group.filters.map((f, i) => (
        <FilterRow
          key={f.key}
          label={`${label}, condition ${i + 1}`}
          filter={f}
          catalog={catalog}
          onChange={(next) => setFilter(i, next)}
          onRemove={removable ? () => onChange({ ...group, filters: group.filters.filter((_, j) => j !== i) }) : null}
        />
      ))}
      {group.conditions ? (
        <div class="filter-nested">
          <TreeEditor
            label={`${label}.`}
            tree={group.conditions}
            depth={depth + 1}
            catalog={catalog}
            onChange={(conditions) => onChange({ ...group, conditions })}
          />
          {group.filters.length > 0 ? (
            <button type="button" class="link" onClick={() => onChange({ filters: group.filters, key: group.key })}>
              Remove nested conditions of {label.toLowerCase()}
            </button>
          ) : null}
        </div>
      ) : null}
      <div class="actions">
        <button type="button" onClick={() => onChange({ ...group, filters: [...group.filters, newFilter()] })}>
          Add condition to {label.toLowerCase()}
        </button>
        {!group.conditions && depth < MAX_DEPTH ? (
          <button type="button" onClick={() => onChange({ ...group, conditions: newTree() })}>
            Add nested conditions to {label.toLowerCase()}
          </button>
        ) : null}
      </div>
    </div>
  );
}

/** `label` prefixes the groups' names: "Group " at the top, "Group 1." inside group 1. */
export function TreeEditor({
  label = 'Group ',
  tree,
  depth = 1,
  catalog,
  onChange,
}: {
  label?: string;
  tree: TreeDraft;
  depth?: number;
  catalog: FilterCatalog;
  onChange: (tree: TreeDraft) => void;
}) {
  const setGroup = (i: number, g: GroupDraft) => onChange({ ...tree, groups: tree.groups.map((x, j) => (j === i ? g : x)) });
  const where = depth === 1 ? 'groups' : `groups of ${label.slice(0, -1).toLowerCase()}`;
  return (
    <div class="filter-tree">
      <label class="filter-logic">
        Contacts match when
        <select
          aria-label={`Combine ${where}`}
          value={tree.logic}
          onChange={(e) => onChange({ ...tree, logic: e.currentTarget.value as Logic })}
        >
          <option value="AND">all</option>
          <option value="OR">any</option>
        </select>
        of these groups hold
      </label>
      {tree.groups.map((g, i) => (
        <div key={g.key}>
          {i > 0 ? <p class="filter-joiner">{tree.logic === 'AND' ? 'and' : 'or'}</p> : null}
          <GroupEditor
            label={`${label}${i + 1}`}
            group={g}
            depth={depth}
            catalog={catalog}
            onChange={(next) => setGroup(i, next)}
            onRemove={tree.groups.length > 1 ? () => onChange({ ...tree, groups: tree.groups.filter((_, j) => j !== i) }) : null}
          />
        </div>
      ))}
      <button type="button" onClick={() => onChange({ ...tree, groups: [...tree.groups, newGroup()] })}>
        Add group{depth > 1 ? ` to ${label.slice(0, -1).toLowerCase()}` : ''}
      </button>
    </div>
  );
}
