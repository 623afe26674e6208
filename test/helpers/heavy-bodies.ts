/**
 * Request bodies at the edges of the limits (docs/architecture.md "The body pipeline"), built once as bytes so
 * that sending them costs the sender nothing: the stall test (test/http/refused-input.test.ts) and
 * `npm run bench -- refused-input` measure what they cost the API's event loop.
 */

/** A /v1/track body whose data holds `keys` short keys: 200,000 make 1.75 MB. */
export function manyKeysTrack(keys: number): Buffer {
  const parts: string[] = [];
  for (let i = 0; i < keys; i++) parts.push(`"${i.toString(36)}":1`);
  return Buffer.from(`{"email":"keys@example.test","event":"flood","data":{${parts.join(',')}}}`);
}

/** A /v1/track body whose data holds one array of `elements` small numbers. */
export function longArrayTrack(elements: number): Buffer {
  return Buffer.from(`{"email":"array@example.test","event":"flood","data":{"list":[${'1,'.repeat(elements - 1)}1]}}`);
}

/** A CSV of exactly `bytes` bytes: a header, rows of 50-odd bytes, and a last row padded to fit. */
export function csvOf(bytes: number): Buffer {
  const rows = ['email,first_name,plan\n'];
  let size = rows[0]!.length;
  for (let i = 0; size < bytes - 100; i++) {
    const row = `bulk-${i}@example.test,First ${i},plan-${i % 7}\n`;
    rows.push(row);
    size += row.length;
  }
  const last = 'last@example.test,';
  rows.push(`${last}${'x'.repeat(bytes - size - last.length - 1)}\n`);
  return Buffer.from(rows.join(''));
}

/** `file` as the multipart/form-data field `file`, as `curl -F file=@contacts.csv` sends it. */
export function multipartFile(file: Buffer): { contentType: string; body: Buffer } {
  const boundary = '----postwire-heavy-body';
  const head = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="contacts.csv"\r\nContent-Type: text/csv\r\n\r\n`;
  return {
    contentType: `multipart/form-data; boundary=${boundary}`,
    body: Buffer.concat([Buffer.from(head), file, Buffer.from(`\r\n--${boundary}--\r\n`)]),
  };
}

/** Liquid sources the engine refuses: too many tags to parse, and loops that run past the render budget. */
export const REFUSED_TEMPLATES = {
  tooManyTags: `${'{{ a }}'.repeat(140_000)}{% if %}`,
  renderPastBudget: '{% for i in (1..3000) %}{% for j in (1..3000) %}{{ j }}{% endfor %}{% endfor %}',
};
