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
 * The share of a chunk that fits the project's field limit. When the project has room for every new field
 * of the file, the first chunk admits them all (and records their staged types, as before the limit). Else
 * rows admit their new fields in file order, all of a row's or none, while room remains, and a row that
 * needs a field beyond it fails alone. Reads the catalog in `tx`; a concurrent writer taking the last room
 * makes the chunk's statement fail on the database's own check, and its retry reads the catalog again.
 */
export async function admitFields(
  tx: EntityManager,
  projectId: string,
  rows: RowWrite[],
  staged?: Array<[string, FieldType]>,
): Promise<Admitted> {
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
  const stagedKeys = staged?.map(([key]) => key) ?? [];
  const allFit = admit(stagedKeys);
  const admitted: Admitted = { rows: [], refused: [] };
  for (const row of rows) {
    if (admit([...fieldTypesOf(toDataPatch(row.data).set).keys()])) admitted.rows.push(row);
    else admitted.refused.push({ row: row.row, email: row.email, error: TOO_MANY_FIELDS_MESSAGE });
  }
  if (staged) admitted.fieldTypes = new Map(allFit ? staged : staged.filter(([key]) => known.has(key)));
  return admitted;
}
