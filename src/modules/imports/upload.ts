import busboy from 'busboy';
import { CsvError, parse } from 'csv-parse';
import type { AppContext } from '../../http/context';
import { ApiError, badRequest } from '../../http/errors';
import { stageRecords, type StagedImport } from './stage';

/** api.md "Limits": CSV import, 5 MB. */
export const MAX_CSV_BYTES = 5 * 1024 * 1024;
// Room for the multipart boundaries and part headers around the file.
const FRAMING_BYTES = 64 * 1024;

export interface CsvUpload extends StagedImport {
  /** For operators: the workflow's summary names the file. */
  fileName: string;
}

const tooLarge = () =>
  new ApiError(413, 'PAYLOAD_TOO_LARGE', 'The CSV file exceeds 5 MB', {
    suggestion: 'Split the file into parts of at most 5 MB and import each.',
  });

const notCsv = (err: CsvError) =>
  badRequest(`The file is not valid CSV: ${err.message}`, { suggestion: 'Export the sheet as CSV (comma-separated, UTF-8) and try again.' });

// A name the client chose, shown in the Temporal UI: one line, bounded.
const displayName = (name: string | undefined) => name?.replace(/[\u0000-\u001f\u007f]/g, '').slice(0, 100).trim() || 'an uploaded CSV';

/**
 * Streams the multipart field `file` through the CSV parser into staged chunks; the raw file is never held
 * whole. Other fields and files are drained unread. Whatever fails, the request body is read to its end,
 * so the client gets the answer instead of a reset connection.
 */
export function readCsvUpload(ctx: AppContext): Promise<CsvUpload> {
  if (!ctx.is('multipart/form-data')) {
    ctx.req.resume();
    throw new ApiError(415, 'UNSUPPORTED_MEDIA_TYPE', 'Expected multipart/form-data with the CSV in the field file', {
      suggestion: 'Send the file as a multipart form upload, e.g. curl -F file=@contacts.csv.',
    });
  }
  if (Number(ctx.get('content-length') || 0) > MAX_CSV_BYTES + FRAMING_BYTES) {
    ctx.req.resume();
    throw tooLarge();
  }
  return new Promise((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      parser = busboy({ headers: ctx.req.headers, limits: { fileSize: MAX_CSV_BYTES, files: 1 } });
    } catch (err) {
      ctx.req.resume();
      reject(badRequest(`Malformed multipart body: ${err instanceof Error ? err.message : String(err)}`));
      return;
    }
    let staging: Promise<CsvUpload> | undefined;
    let truncated = false;
    parser.on('file', (field, file, info) => {
      if (field !== 'file' || staging) return void file.resume();
      file.on('limit', () => (truncated = true));
      const records = file.pipe(parse({ bom: true, relax_column_count: true, relax_quotes: true }));
      staging = stageRecords(records).then((staged) => ({ ...staged, fileName: displayName(info.filename) }));
      staging.catch(() => {
        file.unpipe(records);
        file.resume();
      });
    });
    parser.on('close', () => {
      if (truncated) return reject(tooLarge());
      if (!staging) return reject(badRequest('No CSV file in the multipart field file'));
      staging.then(resolve, (err: unknown) => reject(err instanceof CsvError ? notCsv(err) : err));
    });
    parser.on('error', (err: unknown) => {
      ctx.req.unpipe(parser);
      ctx.req.resume();
      reject(badRequest(`Malformed multipart body: ${err instanceof Error ? err.message : String(err)}`));
    });
    ctx.req.pipe(parser);
  });
}
