import { z } from 'zod';
import { FIELD_TYPES } from '../contacts/entities';
import { jobIdParams, jobStatus } from '../jobs/schemas';

export const ImportForm = z.object({
  file: z
    .file()
    .describe(
      'The CSV, at most 5 MB: a header row with an email column (any case), optionally subscribed; every other column becomes a data key',
    ),
});

export const ImportJobParams = jobIdParams('import');

export const ImportRowError = z.object({
  row: z.number().int().describe('Row in the file as a spreadsheet numbers it: the header is row 1'),
  email: z.string().describe('The email cell as given'),
  error: z.string(),
});

export const ImportResult = z.object({
  totalRows: z.number().int().describe('Rows after the header, blank lines not counted'),
  created: z.number().int(),
  updated: z.number().int(),
  skipped: z.number().int().describe('Rows with no values, and rows repeating an email an earlier row imports'),
  failed: z.number().int(),
  errors: z.array(ImportRowError),
});

export const ImportJobStatus = jobStatus(ImportResult);

/** The rows of one chunk as stage.ts stored them. */
export const StoredImportChunk = z.object({
  rows: z.array(
    z.object({
      row: z.number().int(),
      email: z.string(),
      subscribed: z.boolean().optional(),
      data: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])),
    }),
  ),
  skipped: z.number().int(),
  errors: z.array(ImportRowError),
  fieldTypes: z.array(z.tuple([z.string(), z.enum(FIELD_TYPES)])).optional(),
});
