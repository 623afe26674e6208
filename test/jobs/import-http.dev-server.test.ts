import { randomUUID } from 'node:crypto';
import { startStack, type TestStack } from '../helpers/stack';
import { startWorker } from '../helpers/temporal';
import { sql } from '../helpers/seed';
import { waitFor } from '../helpers/wait';
import { ProjectIdKey } from '../../workflows/search-attributes';
import { addContact, contactsOf, csv, eventsOf, projectState, settled, upload } from './helpers';
import { tenant, type Tenant } from '../helpers/tenants';

let stack: TestStack;
beforeAll(async () => {
  stack = await startStack({ worker: startWorker, terminateWorkflows: true });
});
afterAll(() => stack?.close());

const poll = (jobId: string) => `/contacts/import/${jobId}`;

async function imported(t: Tenant, content: string, fileName?: string) {
  const res = await upload(t, content, fileName);
  expect(res.status).toBe(202);
  return settled<Record<string, unknown>>(t, poll(res.body.jobId));
}

const fieldsOf = (projectId: string) => sql(stack, 'select key, type from contact_fields where project_id = ? order by key', [projectId]);

describe('POST /contacts/import', () => {
  it('imports rows as contacts: data keys as headed, typed cells, the subscribed column, row errors and skips', async () => {
    const t = await tenant(stack);
    const res = await upload(
      t,
      csv(
        '\ufeffName,EMAIL,Subscribed,first name,age,vip,zip,joined,id',
        'Ann,Ann@Example.test,,Ann A,42,TRUE,02134,2024-05-01,ignored',
        'Bob,bob@example.test,false,Bob B,7,false,10001,,',
        'Nobody,not-an-email,,,,,,,',
        'Cat,,,,,,,,',
        '',
        ',,,,,,,,',
        'Dup,ann@example.test,,Other,1,,,,',
        'Eve,eve@example.test,maybe,,,,,,',
        'Fay,fay@example.test,yes,"Fay, F.",1.50,,,,,extra',
        '"Gus","gus@example.test","1","Gus ""G""",-3,,,,',
      ),
    );
    expect(res.status).toBe(202);
    expect(res.body).toEqual({ jobId: expect.stringMatching(/^import:[0-9a-f]{8}-[0-9a-f-]{27}$/) });

    expect(await settled(t, poll(res.body.jobId))).toEqual({
      id: res.body.jobId,
      state: 'completed',
      progress: 100,
      result: {
        totalRows: 9,
        created: 3,
        updated: 0,
        skipped: 2,
        failed: 4,
        errors: [
          { row: 4, email: 'not-an-email', error: 'Invalid email address' },
          { row: 5, email: '', error: 'The email is missing' },
          { row: 9, email: 'eve@example.test', error: 'subscribed must be true or false' },
          { row: 10, email: 'fay@example.test', error: 'The row has 10 values but the header names 9 columns' },
        ],
      },
    });
    expect((await contactsOf(stack, t.project.id)).map(({ id: _id, ...c }) => c)).toEqual([
      {
        email: 'ann@example.test',
        subscribed: true,
        data: { Name: 'Ann', 'first name': 'Ann A', age: 42, vip: true, zip: '02134', joined: '2024-05-01' },
      },
      { email: 'bob@example.test', subscribed: false, data: { Name: 'Bob', 'first name': 'Bob B', age: 7, vip: false, zip: 10001 } },
      { email: 'gus@example.test', subscribed: true, data: { Name: 'Gus', 'first name': 'Gus "G"', age: -3 } },
    ]);
    // Rule 9: the first value decides the type, so zip stays a string field after 02134.
    expect(await fieldsOf(t.project.id)).toEqual([
      { key: 'Name', type: 'string' },
      { key: 'age', type: 'number' },
      { key: 'first name', type: 'string' },
      { key: 'joined', type: 'date' },
      { key: 'vip', type: 'boolean' },
      { key: 'zip', type: 'string' },
    ]);
    expect(await eventsOf(stack, t.project.id)).toEqual([]);
  });

  it('updates existing contacts by patching data; empty cells keep values, and subscription flips emit their events', async () => {
    const t = await tenant(stack);
    const ann = await addContact(t, 'ann@example.test', { data: { plan: 'pro', age: 30 } });
    const bob = await addContact(t, 'bob@example.test', { subscribed: false, data: { plan: 'free' } });
    const job = await imported(
      t,
      csv('email,subscribed,age,plan', 'ANN@example.test,false,31,', 'bob@example.test,true,,basic', 'cat@example.test,,5,x'),
    );
    expect(job.result).toEqual({ totalRows: 3, created: 1, updated: 2, skipped: 0, failed: 0, errors: [] });
    const contacts = await contactsOf(stack, t.project.id);
    expect(contacts.map(({ id: _id, ...c }) => c)).toEqual([
      { email: 'ann@example.test', subscribed: false, data: { plan: 'pro', age: 31 } },
      { email: 'bob@example.test', subscribed: true, data: { plan: 'basic' } },
      { email: 'cat@example.test', subscribed: true, data: { age: 5, plan: 'x' } },
    ]);
    expect(await eventsOf(stack, t.project.id)).toEqual([
      { name: 'contact.unsubscribed', contact_id: ann },
      { name: 'contact.subscribed', contact_id: bob },
    ]);
  });

  it('fails the rows over the limits of data (101 values, a 101-character key, a 1,001st field) alone, importing the others', async () => {
    const t = await tenant(stack);
    // 998 fields already: the file's first two new fields fit, the third does not.
    await sql(
      stack,
      `insert into contact_fields (project_id, key, type, created_at) select ?, 'old' || k, 'string', now() from generate_series(1, 998) k`,
      [t.project.id],
    );
    const wide = Array.from({ length: 101 }, (_, i) => `c${i}`);
    const long = 'k'.repeat(101);
    const header = ['email', ...wide, long, 'new1', 'new2', 'new3'];
    const row = (email: string, cells: Record<string, string>) => [email, ...header.slice(1).map((h) => cells[h] ?? '')].join(',');
    const full = Object.fromEntries(wide.map((c) => [c, '1']));
    const res = await upload(
      t,
      csv(
        header.join(','),
        row('wide@example.test', full), // 101 values
        row('hundred@example.test', { ...full, c100: '' }), // 100 values: fine, though 100 new fields
        row('long@example.test', { [long]: 'x' }),
        row('ok@example.test', { old1: 'x', new1: 'a' }),
        row('room@example.test', { new2: 'b' }),
        row('full@example.test', { new3: 'c' }),
      ),
    );
    expect(res.status).toBe(202);
    const job = await settled<{ created: number; failed: number; errors: Array<{ row: number; email: string; error: string }> }>(
      t,
      poll(res.body.jobId),
    );
    expect(job.state).toBe('completed');
    expect(job.result.errors).toEqual([
      { row: 2, email: 'wide@example.test', error: expect.stringContaining('at most 100 keys') },
      { row: 3, email: 'hundred@example.test', error: expect.stringContaining('1000') },
      { row: 4, email: 'long@example.test', error: expect.stringContaining('at most 100 characters') },
      { row: 7, email: 'full@example.test', error: expect.stringContaining('1000') },
    ]);
    expect(job.result.created).toBe(2);
    expect((await contactsOf(stack, t.project.id)).map((c) => c.email).sort()).toEqual(['ok@example.test', 'room@example.test']);
    expect((await fieldsOf(t.project.id)).length).toBe(1000);
  });

  it('fails a row holding NUL with a clear error and imports the other rows', async () => {
    const t = await tenant(stack);
    const result = await imported(
      t,
      csv('email,note', 'ann@example.test,fine', 'b\u0000ob@example.test,x', 'cat@example.test,a\u0000b', 'dan@example.test,ok'),
    );
    expect(result).toMatchObject({
      state: 'completed',
      result: {
        totalRows: 4,
        created: 2,
        failed: 2,
        errors: [
          { row: 3, email: 'bob@example.test', error: 'Column 1 contains the NUL character (U+0000), which text cannot hold' },
          { row: 4, email: 'cat@example.test', error: 'Column 2 contains the NUL character (U+0000), which text cannot hold' },
        ],
      },
    });
    expect((await contactsOf(stack, t.project.id)).map((c) => c.email)).toEqual(['ann@example.test', 'dan@example.test']);
  });

  it('completes a header-only file with nothing to do', async () => {
    const t = await tenant(stack);
    const job = await imported(t, 'Email\n');
    expect(job).toMatchObject({
      state: 'completed',
      progress: 100,
      result: { totalRows: 0, created: 0, updated: 0, skipped: 0, failed: 0, errors: [] },
    });
  });

  it('runs a large file in chunks under the ProjectId search attribute, with a summary per workflow and per activity', async () => {
    const t = await tenant(stack);
    const rows = Array.from({ length: 1234 }, (_, i) => `p${i}@example.test,${i % 2 === 0 ? 'even' : 'odd'}`);
    const res = await upload(t, csv('email,parity', ...rows), 'people.csv');
    const job = await settled(t, poll(res.body.jobId));
    expect(job.result).toEqual({ totalRows: 1234, created: 1234, updated: 0, skipped: 0, failed: 0, errors: [] });
    const [count] = await sql<{ n: number }>(
      stack,
      "select count(*)::int as n from contacts where project_id = ? and data->>'parity' = 'even'",
      [t.project.id],
    );
    expect(count!.n).toBe(617);

    const { client } = stack.deps.temporal;
    const handle = client.workflow.getHandle(res.body.jobId);
    const description = await handle.describe();
    expect(description.typedSearchAttributes.get(ProjectIdKey)).toBe(t.project.id);
    expect(await description.staticSummary()).toBe(`Import people.csv (1,234 rows) into project ${t.project.id}`);
    expect(await handle.result()).toMatchObject({ totalRows: 1234, created: 1234 });
    const events = (await handle.fetchHistory()).events ?? [];
    const summaries = events
      .filter((e) => e.activityTaskScheduledEventAttributes?.activityType?.name === 'processImportChunk')
      .map((e) => JSON.parse(Buffer.from(e.userMetadata!.summary!.data!).toString()));
    expect(summaries).toEqual(['rows 1–500', 'rows 501–1000', 'rows 1001–1234']);
    const listed = await waitFor('the visibility record', async () => {
      for await (const wf of client.workflow.list({ query: `ProjectId="${t.project.id}"` })) return wf.workflowId;
      return undefined;
    });
    expect(listed).toBe(res.body.jobId);
  });

  describe('refused uploads queue nothing and change nothing', () => {
    async function refused(
      t: Tenant,
      send: () => PromiseLike<{ status: number; body: { error: Record<string, unknown> } }>,
      status: number,
      code: string,
    ) {
      const before = await projectState(stack, t.project.id);
      const res = await send();
      expect(res.status).toBe(status);
      expect(res.body.error).toMatchObject({ code, statusCode: status });
      expect(await projectState(stack, t.project.id)).toEqual(before);
      return res.body.error;
    }

    let t: Tenant;
    beforeAll(async () => {
      t = await tenant(stack);
      await addContact(t, 'kept@example.test', { data: { plan: 'pro' } });
    });

    it('400 without an email column', async () => {
      const error = await refused(t, () => upload(t, csv('name,mail', 'Ann,ann@example.test')), 400, 'BAD_REQUEST');
      expect(error.message).toBe('The CSV has no email column');
    });

    it('400 for an empty file, a file in another field, a malformed CSV, or a column named twice', async () => {
      expect((await refused(t, () => upload(t, ''), 400, 'BAD_REQUEST')).message).toBe('The CSV file is empty');
      expect((await refused(t, () => upload(t, csv('email', 'a@example.test'), 'a.csv', 'csv'), 400, 'BAD_REQUEST')).message).toBe(
        'No CSV file in the multipart field file',
      );
      expect((await refused(t, () => upload(t, 'email,name\n"kept@example.test,Ann\n'), 400, 'BAD_REQUEST')).message).toMatch(
        /^The file is not valid CSV: Quote Not Closed/,
      );
      expect((await refused(t, () => upload(t, csv('email,plan,plan', 'kept@example.test,a,b')), 400, 'BAD_REQUEST')).message).toBe(
        'The CSV has two columns named plan',
      );
      expect((await refused(t, () => upload(t, csv('email,Email', 'a@example.test,b@example.test')), 400, 'BAD_REQUEST')).message).toBe(
        'The CSV names the email or subscribed column more than once',
      );
    });

    it('413 for a file over 5 MB', async () => {
      const row = 'kept@example.test,' + 'x'.repeat(80);
      const big = csv('email,note', ...Array.from({ length: Math.ceil((5 * 1024 * 1024) / row.length) + 1 }, () => row));
      expect(big.length).toBeGreaterThan(5 * 1024 * 1024);
      const error = await refused(t, () => upload(t, big), 413, 'PAYLOAD_TOO_LARGE');
      expect(error.message).toBe('The CSV file exceeds 5 MB');
    });

    it('415 for a body that is not multipart, 401 without a key', async () => {
      await refused(t, () => t.c.post('/contacts/import').send({ file: 'email\na@example.test' }), 415, 'UNSUPPORTED_MEDIA_TYPE');
      await refused(
        t,
        () => stack.http().post('/contacts/import').attach('file', Buffer.from('email\na@example.test\n'), 'a.csv'),
        401,
        'INVALID_API_KEY',
      );
    });
  });
});

describe('GET /contacts/import/{jobId}', () => {
  it("answers 404 for another project's job, an unknown one, a bulk job's ID and a malformed ID", async () => {
    const owner = await tenant(stack);
    const other = await tenant(stack);
    const { jobId } = (await upload(owner, csv('email', 'a@example.test'))).body;
    await settled(owner, poll(jobId));
    for (const id of [
      jobId,
      `import:${randomUUID()}`,
      `bulk:${jobId.slice('import:'.length)}`,
      'import:nope',
      jobId.slice('import:'.length),
    ]) {
      const res = await other.c.get(poll(id));
      expect(res.status).toBe(404);
      expect(res.body.error).toMatchObject({ code: 'NOT_FOUND', statusCode: 404 });
    }
    expect((await owner.c.get(poll(`import:${randomUUID()}`))).status).toBe(404);
  });
});
