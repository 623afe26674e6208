import { CsvError, parse } from 'csv-parse';
import type { AppContext } from '../../http/context';
import { ApiError, badRequest } from '../../http/errors';
import { readMultipartFile } from '../../http/multipart';
import { stageRecords, type StagedImport } from './stage';

/** A CSV import is at most 5 MB: 5,000,000 bytes, that one included (docs/jobs.md "CSV rules"). */
export const MAX_CSV_BYTES = 5_000_000;

export interface CsvUpload extends StagedImport {
  /** For operators: the workflow's summary names the file. */
  fileName: string;
}

const tooLarge = () =>
  new ApiError(413, 'PAYLOAD_TOO_LARGE', 'The CSV file exceeds 5 MB', {
    suggestion: 'Split the file into parts of at most 5 MB and import each.',
  });

const notCsv = (err: CsvError) =>
  badRequest(`The file is not valid CSV: ${err.message}`, {
    suggestion: 'Export the sheet as CSV (comma-separated, UTF-8) and try again.',
  });

// A name the client chose, shown in the Temporal UI: one line, bounded.
const displayName = (name: string | undefined) =>
  name
    ?.replace(/[\u0000-\u001f\u007f]/g, '')
    .slice(0, 100)
    .trim() || 'an uploaded CSV';

/**
 * Streams the multipart field `file` through the CSV parser into staged chunks as it arrives, a socket read at a
 * time: the raw file is never held whole, and no step of it keeps the event loop long
 * (docs/contributors/jobs.md "CSV rules: how the upload is staged").
 */
export function readCsvUpload(ctx: AppContext): Promise<CsvUpload> {
  return readMultipartFile(ctx, {
    field: 'file',
    maxBytes: MAX_CSV_BYTES,
    noun: 'CSV file',
    example: 'curl -F file=@contacts.csv',
    tooLarge,
    consume: async (file, info, stopReading) => {
      const records = file.pipe(parse({ bom: true, relax_column_count: true, relax_quotes: true }));
      stopReading.addEventListener('abort', () => {
        file.unpipe(records);
        records.destroy();
      });
      try {
        return { ...(await stageRecords(records)), fileName: displayName(info.filename) };
      } catch (err) {
        file.unpipe(records);
        throw err instanceof CsvError ? notCsv(err) : err;
      }
    },
  });
}
