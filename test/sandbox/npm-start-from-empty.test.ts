import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { waitFor } from '../helpers/wait';
import { freePorts, printedCurls, printedField as field, startIsolated, type IsolatedStart } from '../../scripts/lib/isolated-start';

/**
 * Issue 14's proof: `npm start` from an empty data directory, as the README says, then only what it printed
 * (its curl commands, run as printed with the address changed as it suggests, its keys and URLs): mail to
 * delivered@, bounce@ and complaint@ at the simulator and to an ordinary address, the event that starts the
 * sample automation; then the mail capture's pages, the email.* events, the suppression of the contacts that
 * bounced or complained and the automation's execution, read through the API with the printed key. Its own
 * data directory and ports, so it runs beside the services the suite shares; everything it started is
 * stopped, and its folder removed, even when it fails.
 */
jest.setTimeout(420_000);

const run = promisify(execFile);
const SIM = 'simulator.postwire.test';
const START_LIMIT_MS = 300_000;
const OUTCOME_LIMIT_MS = 60_000;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let tmp: string;
let started: IsolatedStart | undefined;

beforeAll(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'postwire-npm-start-'));
  // Run as root, the embedded PostgreSQL runs as its own user, which must reach its data folder.
  fs.chmodSync(tmp, 0o755);
});

afterAll(async () => {
  await started?.stop();
  fs.rmSync(tmp, { recursive: true, force: true });
});

/** Runs a printed command as a shell would, and parses its JSON answer. */
async function shell(command: string): Promise<Record<string, unknown> & { success?: boolean; data?: unknown }> {
  const { stdout } = await run('bash', ['-c', command]);
  return JSON.parse(stdout);
}

interface Sent {
  email: string;
  contact: { id: string };
}

it('npm start from an empty data directory: what it prints sends, simulates outcomes and runs the automation', async () => {
  const dataDir = path.join(tmp, 'data');
  started = startIsolated({ ...(await freePorts()), POSTWIRE_DATA_DIR: dataDir });
  const block = await started.printed(START_LIMIT_MS);
  // It started from nothing, in the data directory it was given: a new cluster, a new account kept there.
  expect(started.output()).toContain(`initialising a new cluster in ${path.join(dataDir, 'pg')}`);
  expect(block).toContain(`made once; the same on every start; ${path.join(dataDir, 'dev-account.json')}`);
  expect(fs.existsSync(path.join(dataDir, 'dev-account.json'))).toBe(true);
  const api = field(block, 'API');
  const capture = field(block, 'Mail capture');
  const secret = field(block, 'Secret key');
  const { send: sendCommand, track: trackCommand, activity: activityCommand } = printedCurls(block);
  expect(sendCommand).toContain(`delivered@${SIM}`);

  // The first email as printed; then the same command to the other addresses it names, and to an ordinary one.
  const sendTo = async (to: string) => {
    const answer = await shell(sendCommand.replace(`delivered@${SIM}`, to));
    expect(answer).toMatchObject({ success: true });
    return (answer.data as { emails: Sent[] }).emails[0]!;
  };
  const delivered = await sendTo(`delivered@${SIM}`);
  const bounced = await sendTo(`bounce@${SIM}`);
  const complained = await sendTo(`complaint@${SIM}`);
  const ordinary = await sendTo('you@example.com');
  expect(await shell(trackCommand)).toMatchObject({ success: true });

  /** The API with the printed secret key. */
  const apiCall = async (method: string, route: string, status: number, body?: object) => {
    const res = await fetch(new URL(route, api), {
      method,
      headers: { Authorization: `Bearer ${secret}`, ...(body ? { 'Content-Type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    const json = (await res.json()) as Record<string, unknown> & { data: Array<Record<string, unknown>> };
    if (res.status !== status) throw new Error(`${method} ${route} answered ${res.status}: ${JSON.stringify(json)}`);
    return json;
  };
  const apiGet = (route: string) => apiCall('GET', route, 200);

  // The email activity (the email.* events), through the printed command.
  type Item = {
    type: string;
    email: { id: string; sourceType: string | null } | null;
    contact: { id: string } | null;
    details: Record<string, unknown>;
  };
  const activity = await waitFor(
    'the outcomes in the activity',
    async () => {
      await sleep(250); // each look runs curl
      const items = (await shell(activityCommand)).data as Item[];
      const has = (emailId: string, type: string) => items.some((i) => i.email?.id === emailId && i.type === type);
      const workflowDelivered = items.some((i) => i.email?.sourceType === 'WORKFLOW' && i.type === 'DELIVERED');
      return has(delivered.email, 'DELIVERED') &&
        has(bounced.email, 'BOUNCED') &&
        has(complained.email, 'COMPLAINED') &&
        has(ordinary.email, 'SENT') &&
        workflowDelivered
        ? items
        : undefined;
    },
    OUTCOME_LIMIT_MS,
  );
  expect(activity.some((i) => i.email?.id === bounced.email && i.type === 'DELIVERED')).toBe(false);

  // The email.* events, by name, for the simulated emails.
  type Event = { name: string; contact: { id: string }; data: Record<string, unknown> };
  const events = async (name: string) => (await apiGet(`/events?name=${name}&limit=100`)).data as unknown as Event[];
  const contactsOf = async (name: string) => (await events(name)).map((e) => e.contact.id).sort();
  expect(await contactsOf('email.bounce')).toEqual([bounced.contact.id]);
  expect(await contactsOf('email.complaint')).toEqual([complained.contact.id]);
  expect(await contactsOf('email.delivery')).toEqual(expect.arrayContaining([delivered.contact.id, complained.contact.id]));
  expect(await contactsOf('email.delivery')).not.toContain(bounced.contact.id);

  // Suppression: marketing email to the addresses that bounced or complained is held back (SUPPRESSED, with the
  // entry's reason); to the other one it is sent.
  const template = await apiCall('POST', '/templates', 201, {
    name: 'News',
    subject: 'News',
    body: '<p>News</p>',
    from: field(block, 'Sender'),
    type: 'MARKETING',
  });
  const news = async (to: string) =>
    ((await apiCall('POST', '/v1/send', 200, { to, template: template.id })).data as unknown as { emails: Sent[] }).emails[0]!.email;
  const [toBounced, toComplained, toDelivered] = [
    await news(`bounce@${SIM}`),
    await news(`complaint@${SIM}`),
    await news(`delivered@${SIM}`),
  ];
  const outcomes = await waitFor(
    'the marketing emails to settle',
    async () => {
      const items = (await apiCall('GET', '/activity?type=SUPPRESSED,DELIVERED&limit=100', 200)).data as unknown as Item[];
      const of = (id: string) => items.find((i) => i.email?.id === id);
      const settled = [of(toBounced), of(toComplained), of(toDelivered)];
      return settled.every(Boolean) ? settled.map((i) => [i!.type, (i!.details.reason as string | undefined) ?? '']) : undefined;
    },
    OUTCOME_LIMIT_MS,
  );
  expect(outcomes).toEqual([
    ['SUPPRESSED', 'BOUNCE'],
    ['SUPPRESSED', 'COMPLAINT'],
    ['DELIVERED', ''],
  ]);

  // The sample automation ran for the tracked contact, to its end.
  const workflows = (await apiGet('/workflows')).data;
  const welcome = workflows.find((w) => w.name === 'Welcome (development)');
  expect(welcome).toMatchObject({ enabled: true, triggerConfig: { eventName: 'signed-up' } });
  const executions = await waitFor(
    'the execution to complete',
    async () => {
      const page = (await apiGet(`/workflows/${String(welcome!.id)}/executions`)).data;
      return page.some((e) => e.status === 'COMPLETED') ? page : undefined;
    },
    OUTCOME_LIMIT_MS,
  );
  expect(executions).toEqual([expect.objectContaining({ status: 'COMPLETED', contactId: delivered.contact.id })]);

  // The mail capture: the ordinary address's email is listed, DKIM-checked against the development DNS.
  const list = await waitFor(
    'the email in the mail capture',
    async () => {
      const page = await (await fetch(`${capture}/?q=you%40example.com`)).text();
      return /href="\/messages\/[^"]+"/.test(page) ? page : undefined;
    },
    OUTCOME_LIMIT_MS,
  );
  expect(list).toContain('pass');
  const messagePath = /href="(\/messages\/[^"]+)"/.exec(list)![1]!;
  const message = await (await fetch(`${capture}${messagePath}`)).text();
  expect(message).toMatch(/dkim=pass header\.d=dev\.postwire\.test/);
  expect(message).toContain('My first email');
  // Nothing addressed to the simulator reached the capture.
  expect(await (await fetch(`${capture}/?q=${SIM}`)).text()).not.toMatch(/href="\/messages\//);
});
