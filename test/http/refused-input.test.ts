import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { startStack, type TestStack } from '../helpers/stack';
import { tenant, type Tenant } from '../helpers/tenants';
import { REFUSED_TEMPLATES, csvOf, longArrayTrack, manyKeysTrack, multipartFile } from '../helpers/heavy-bodies';

/**
 * A refused request costs little (decisions "Edges"): it is answered with its 4xx and stores nothing, and
 * another tenant reading its contacts meanwhile is answered while the refused request is worked on (the work
 * goes in slices, so the loop is never held for its whole length). How long the loop is held at most (the
 * 50 ms of the decision), with wall-clock stalls and the other tenant's latency, is measured by
 * `npm run bench -- refused-input` on an API process of its own: in this process the test's own client work
 * and garbage collection share the thread, so a bound here would time the test as much as the API.
 */

let stack: TestStack;
let t: Tenant;
let other: Tenant;
beforeAll(async () => {
  stack = await startStack({ terminateWorkflows: true });
  [t, other] = [await tenant(stack), await tenant(stack)];
});
afterAll(async () => {
  await stack?.close();
});

/**
 * What the running test still has under way (its request, its reading loop), stopped when it ends, a timeout
 * included: a test that ran out of time must not go on loading the API through the next one.
 */
const underWay = new Set<() => void>();
afterEach(() => {
  for (const stop of underWay) stop();
  underWay.clear();
});

interface Answer {
  status: number;
  body: { error?: { code: string; errors?: Array<{ field: string; code: string }> } } & Record<string, unknown>;
}

/** The bytes as they are, through node:http: the client's own work in this process stays next to nothing. */
function post(path: string, key: string, contentType: string, body: Buffer): Promise<Answer> {
  const { port } = stack.server.address() as AddressInfo;
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: '127.0.0.1', port, method: 'POST', path, headers: { Authorization: `Bearer ${key}`, 'Content-Type': contentType } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.once('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString() || '{}') }));
      },
    );
    const stop = () => req.destroy();
    underWay.add(stop);
    req.once('close', () => underWay.delete(stop));
    req.once('error', reject);
    req.end(body);
  });
}

/** The answer, and how many of the other tenant's reads were answered while it was worked on. */
async function measured(send: () => Promise<Answer>): Promise<{ answer: Answer; othersAnswered: number }> {
  let running = true;
  const stop = () => void (running = false);
  underWay.add(stop);
  let othersAnswered = 0;
  const reading = (async () => {
    while (running) {
      await other.c.get('/contacts').expect(200);
      othersAnswered++;
    }
  })();
  const answer = await send().finally(stop);
  await reading;
  return { answer, othersAnswered };
}

const track = (body: Buffer) => () => post('/v1/track', t.project.public, 'application/json', body);
const importCsv = (bytes: number) => {
  const { contentType, body } = multipartFile(csvOf(bytes));
  return () => post('/contacts/import', t.project.secret, contentType, body);
};
const preview = (source: string) => () =>
  post('/templates/preview', t.project.secret, 'application/json', Buffer.from(JSON.stringify({ subject: 'Hi', body: source })));

describe('refused input keeps the event loop free', () => {
  it('/v1/track with 200,000 short keys (1.75 MB): 422 naming data', async () => {
    const body = manyKeysTrack(200_000);
    expect(body.length).toBeGreaterThan(1_700_000);
    const { answer } = await measured(track(body));
    expect(answer.status).toBe(422);
    expect(answer.body.error?.errors).toEqual([expect.objectContaining({ field: 'data', code: 'too_big' })]);
  });

  it('/v1/track with an array of 300,000 elements in data: 422 naming it', async () => {
    const { answer } = await measured(track(longArrayTrack(300_000)));
    expect(answer.status).toBe(422);
    expect(answer.body.error?.errors).toEqual([expect.objectContaining({ field: 'data.list', code: 'too_big' })]);
  });

  // An import near the limit is read to its end (about 115,000 rows parsed and judged, and the reads beside it):
  // a few seconds of this process's CPU, several times what the API spends outside jest, whose module sandbox
  // slows csv-parse's byte loop. On the loaded 2-core machine that took up to 64 s of wall time per import.
  it.each([
    [4_900_000, 202],
    [5_000_000, 202],
    [5_000_001, 413],
    [5_300_000, 413],
  ])(
    'a CSV import of %p bytes: %p',
    async (bytes, status) => {
      const { answer, othersAnswered } = await measured(importCsv(bytes));
      expect(answer.status).toBe(status);
      if (status === 413) expect(answer.body.error?.code).toBe('PAYLOAD_TOO_LARGE');
      expect(othersAnswered).toBeGreaterThan(0);
    },
    240_000,
  );

  it.each(Object.entries(REFUSED_TEMPLATES))('a template that is refused (%s): 422', async (_name, source) => {
    const { answer, othersAnswered } = await measured(preview(source));
    expect(answer.status).toBe(422);
    expect(othersAnswered).toBeGreaterThan(0);
  });
});
