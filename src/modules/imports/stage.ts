import { ApiError } from '../../http/errors';
import { fieldTypesOf, toDataPatch } from '../contacts/custom-fields';
import type { FieldType } from '../contacts/entities';
import { IMPORT_CHUNK_ROWS } from '../../../workflows/jobs/ids';
import { readColumns, type Columns } from './columns';
import { judgeRow, type RowError, type RowWrite } from './rows';

/** One activity's share of an import, as stored in job_chunks.items. */
export interface StagedChunk {
  rows: RowWrite[];
  skipped: number;
  errors: RowError[];
  /**
   * On the first chunk only: the type of each new custom field as its first value in the file implies
   * (rule 9). The first chunk runs before the others, which then run side by side.
   */
  fieldTypes?: Array<[string, FieldType]>;
}

export interface StagedImport {
  totalRows: number;
  chunks: StagedChunk[];
}

const emptyChunk = (): StagedChunk => ({ rows: [], skipped: 0, errors: [] });
const sizeOf = (c: StagedChunk) => c.rows.length + c.skipped + c.errors.length;

/**
 * Reads the records of a CSV into chunks of IMPORT_CHUNK_ROWS rows, judging each row on the way. Rows are
 * numbered as a spreadsheet shows them: the header is row 1. Blank lines keep their number but are no row
 * of the import.
 */
export async function stageRecords(records: AsyncIterable<string[]>): Promise<StagedImport> {
  let columns: Columns | undefined;
  const seen = new Set<string>();
  const chunks: StagedChunk[] = [];
  let current = emptyChunk();
  const types = new Map<string, FieldType>();
  let row = 0;
  let totalRows = 0;
  for await (const record of records) {
    row++;
    if (!columns) {
      columns = readColumns(record);
      continue;
    }
    if (record.length === 1 && record[0] === '') continue;
    totalRows++;
    const verdict = judgeRow(columns, record, row, seen);
    if (verdict.kind === 'write') {
      current.rows.push(verdict.write);
      for (const [key, type] of fieldTypesOf(toDataPatch(verdict.write.data).set)) if (!types.has(key)) types.set(key, type);
    } else if (verdict.kind === 'error') current.errors.push(verdict.error);
    else current.skipped++;
    if (sizeOf(current) === IMPORT_CHUNK_ROWS) {
      chunks.push(current);
      current = emptyChunk();
    }
  }
  if (!columns)
    throw new ApiError(400, 'BAD_REQUEST', 'The CSV file is empty', {
      suggestion: 'Send a header row with an email column, then one row per contact.',
    });
  if (sizeOf(current) > 0) chunks.push(current);
  if (chunks[0] && types.size > 0) chunks[0].fieldTypes = [...types];
  return { totalRows, chunks };
}
