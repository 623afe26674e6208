import { setImmediate as nextTurn } from 'node:timers/promises';
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
  /** Each chunk as job_chunks.items stores it, JSON text: serialized as it fills, so the upload is never held as objects. */
  chunks: string[];
}

/**
 * The longest the stager judges rows before it lets the event loop take other work: one socket read of 64 KB
 * holds about 1,300 rows, 30-40 ms of judging on a loaded machine, more than a request may keep the loop.
 */
const STAGE_SLICE_MS = 5;

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
  // The first chunk stays an object until the end: it carries the field types of the whole file.
  let first: StagedChunk | undefined;
  const rest: string[] = [];
  const keep = (chunk: StagedChunk) => {
    if (first) rest.push(JSON.stringify(chunk));
    else first = chunk;
  };
  let current = emptyChunk();
  let sliceStart = performance.now();
  const types = new Map<string, FieldType>();
  let row = 0;
  let totalRows = 0;
  for await (const record of records) {
    if (performance.now() - sliceStart > STAGE_SLICE_MS) {
      await nextTurn();
      sliceStart = performance.now();
    }
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
      keep(current);
      current = emptyChunk();
    }
  }
  if (!columns)
    throw new ApiError(400, 'BAD_REQUEST', 'The CSV file is empty', {
      suggestion: 'Send a header row with an email column, then one row per contact.',
    });
  if (sizeOf(current) > 0) keep(current);
  if (!first) return { totalRows, chunks: [] };
  if (types.size > 0) first.fieldTypes = [...types];
  return { totalRows, chunks: [JSON.stringify(first), ...rest] };
}
