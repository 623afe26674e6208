import type { Readable } from 'node:stream';
import busboy from 'busboy';
import type { AppContext } from './context';
import { ApiError, badRequest } from './errors';

// Room for the multipart boundaries and part headers around the file.
const FRAMING_BYTES = 64 * 1024;

export interface FileUpload<T> {
  /** The form field that carries the file; other fields and files are drained unread. */
  field: string;
  maxBytes: number;
  /** What the file is, for messages: "CSV file", "image". */
  noun: string;
  /** A command that uploads one, for the 415 suggestion. */
  example: string;
  tooLarge: () => ApiError;
  /**
   * Reads the file's stream. Past maxBytes the upload is refused at once, and when the client goes away it is
   * dropped; either way `signal` aborts: stop reading then (what the stream still holds is discarded).
   */
  consume: (file: Readable, info: busboy.FileInfo, signal: AbortSignal) => Promise<T>;
}

/**
 * Reads one file of a multipart/form-data request as `consume` wants it. Whatever fails, the request body is
 * read to its end, so the client gets the answer instead of a reset connection.
 */
export function readMultipartFile<T>(ctx: AppContext, upload: FileUpload<T>): Promise<T> {
  if (!ctx.is('multipart/form-data')) {
    ctx.req.resume();
    throw new ApiError(415, 'UNSUPPORTED_MEDIA_TYPE', `Expected multipart/form-data with the ${upload.noun} in the field ${upload.field}`, {
      suggestion: `Send the file as a multipart form upload, e.g. ${upload.example}.`,
    });
  }
  if (Number(ctx.get('content-length') || 0) > upload.maxBytes + FRAMING_BYTES) {
    ctx.req.resume();
    throw upload.tooLarge();
  }
  const malformed = (err: unknown) => badRequest(`Malformed multipart body: ${err instanceof Error ? err.message : String(err)}`);
  return new Promise((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      // busboy reports a file that reaches `fileSize`; at most maxBytes means one more.
      parser = busboy({ headers: ctx.req.headers, limits: { fileSize: upload.maxBytes + 1, files: 1 } });
    } catch (err) {
      ctx.req.resume();
      reject(malformed(err));
      return;
    }
    let consuming: Promise<T> | undefined;
    const stopReading = new AbortController();
    parser.on('file', (field, file, info) => {
      if (field !== upload.field || consuming) return void file.resume();
      // Refused as soon as it passes the limit, not after what came before it was read to the end.
      file.on('limit', () => {
        stopReading.abort();
        file.resume();
        reject(upload.tooLarge());
      });
      consuming = upload.consume(file, info, stopReading.signal);
      consuming.catch(() => file.resume());
    });
    parser.on('close', () => {
      if (stopReading.signal.aborted) return;
      if (!consuming) return reject(badRequest(`No ${upload.noun} in the multipart field ${upload.field}`));
      consuming.then(resolve, reject);
    });
    parser.on('error', (err: unknown) => {
      ctx.req.unpipe(parser);
      ctx.req.resume();
      reject(malformed(err));
    });
    // A client that goes away mid-upload: the parse stops there (no more of the file comes, and what was read
    // is dropped), instead of the request's work waiting for the end of a body that never comes.
    ctx.req.once('close', () => {
      if (ctx.req.complete) return;
      ctx.req.unpipe(parser);
      stopReading.abort();
      reject(badRequest('The upload was cut off before the end of its body'));
    });
    ctx.req.pipe(parser);
  });
}
