/** Names, sizes and summaries of the contact job workflows, shared by the workflows and the code that starts them. */

export const importJobId = (uuid: string) => `import:${uuid}`;
export const bulkJobId = (uuid: string) => `bulk:${uuid}`;

/** Rows per import activity: one transaction of set-based writes each. */
export const IMPORT_CHUNK_ROWS = 500;
/** Chunks applied at once after the first; they touch disjoint contacts, so only throughput changes. */
export const PARALLEL_CHUNKS = 4;
/** Contact IDs per bulk activity. */
export const BULK_CHUNK_IDS = 250;

export const BULK_OPERATIONS = ['subscribe', 'unsubscribe', 'delete'] as const;
export type BulkOperation = (typeof BULK_OPERATIONS)[number];

export interface JobWorkflowInput {
  jobId: string;
  projectId: string;
  /** Rows or contact IDs in the job. */
  total: number;
  chunkSize: number;
  /** The chunk to start at; set when the workflow continues as new. */
  next?: number;
}

export const chunkCount = (input: Pick<JobWorkflowInput, 'total' | 'chunkSize'>) => Math.ceil(input.total / input.chunkSize);

/** 1234 → "1,234", without Intl, which workflow code should not depend on. */
export const grouped = (n: number) => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');

export const importSummary = (fileName: string, rows: number, projectId: string) =>
  `Import ${fileName} (${grouped(rows)} ${rows === 1 ? 'row' : 'rows'}) into project ${projectId}`;

export const bulkSummary = (operation: BulkOperation, contacts: number, projectId: string) =>
  `Bulk ${operation} of ${grouped(contacts)} ${contacts === 1 ? 'contact' : 'contacts'} in project ${projectId}`;

/** "rows 501–1000": the part of the job one activity covers. */
export function chunkSummary(unit: 'rows' | 'contacts', seq: number, input: Pick<JobWorkflowInput, 'total' | 'chunkSize'>): string {
  const first = seq * input.chunkSize + 1;
  return `${unit} ${first}–${Math.min(input.total, first + input.chunkSize - 1)}`;
}
