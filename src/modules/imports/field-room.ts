import type { EntityManager } from '@mikro-orm/postgresql';
import { fieldTypesOf, toDataPatch } from '../contacts/custom-fields';
import { MAX_CUSTOM_FIELDS, TOO_MANY_FIELDS_MESSAGE } from '../contacts/data-limits';
import type { FieldType } from '../contacts/entities';
import type { RowError, RowWrite } from './rows';

export interface Admitted {
  rows: RowWrite[];
  /** Rows that would have given the project more than MAX_CUSTOM_FIELDS fields: they fail, the import goes on. */
  refused: RowError[];
  /** The staged first types of the fields admitted, for the first chunk. */
  fieldTypes?: Map<string, FieldType>;
}

/**
 * The share of a chunk that fits the project's field limit: new fields are admitted in file order (the
 * staged types first, then row by row) while the project has room, and a row that needs a field beyond it
 * fails alone. Reads the catalog in `tx`; a concurrent writer taking the last room makes the chunk's
 * statement fail on the database's own check, and its retry reads the catalog again.
 */
export async function admitFields(tx: EntityManager, projectId: string, rows: RowWrite[], staged?: Array<[string, FieldType]>): Promise<Admitted> {
  const known = new Set(
    (await tx.execute<Array<{ key: string }>>('select "key" from contact_fields where "project_id" = ?', [projectId])).map((r) => r.key),
  );
  let room = MAX_CUSTOM_FIELDS - known.size;
  const admit = (keys: string[]) => {
    const fresh = keys.filter((k) => !known.has(k));
    if (fresh.length > room) return false;
    for (const key of fresh) known.add(key);
    room -= fresh.length;
    return true;
  };
  const fieldTypes = staged ? new Map(staged.filter(([key]) => admit([key]))) : undefined;
  const admitted: Admitted = { rows: [], refused: [], fieldTypes };
  for (const row of rows) {
    if (admit([...fieldTypesOf(toDataPatch(row.data).set).keys()])) admitted.rows.push(row);
    else admitted.refused.push({ row: row.row, email: row.email, error: TOO_MANY_FIELDS_MESSAGE });
  }
  return admitted;
}
