import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startStack, type TestStack } from '../helpers/stack';
import { senderTenant, tenant } from '../helpers/tenants';
import { recipient } from '../emails/helpers';
import { createCampaign } from '../campaigns/helpers';
import { baseUrl } from './helpers';
import { declaredRoutes } from '../../src/app/declared-routes';
import { operationsOf } from '../../src/modules/agent/catalog';
import { runCli } from '../../src/modules/agent/cli/run';
import { remoteDispatch } from '../../src/modules/agent/request';

let stack: TestStack;
beforeAll(async () => {
  stack = await startStack({ pump: true, terminateWorkflows: true });
});
afterAll(() => stack?.close());

const BIN = path.resolve(__dirname, '..', '..', 'bin', 'postwire.js');
const dir = mkdtempSync(path.join(os.tmpdir(), 'postwire-cli-'));

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

const environment = (env: Record<string, string | undefined>) => ({
  PATH: process.env.PATH,
  HOME: dir,
  POSTWIRE_URL: baseUrl(stack),
  ...env,
});

/** The CLI as a user runs it: the bin in a process of its own, with the key and URL in the environment (HOME elsewhere: no config file). */
function spawned(args: string[], env: Record<string, string | undefined> = {}): Promise<Run> {
  return new Promise((resolve) => {
    execFile(process.execPath, [BIN, ...args], { env: environment(env), timeout: 50_000 }, (err, stdout, stderr) =>
      resolve({ code: err ? ((err as { code?: number }).code ?? -1) : 0, stdout, stderr }),
    );
  });
}

const operations = operationsOf(declaredRoutes());

/**
 * The same CLI in this process, against the stack over HTTP: a command's own process costs about 1.5 s of CPU to
 * start (docs/cli.md), so two tests spawn the bin and the others run its code here.
 */
async function postwire(args: string[], env: Record<string, string | undefined> = {}): Promise<Run> {
  let stdout = '';
  let stderr = '';
  const code = await runCli(args, operations, {
    env: environment(env),
    out: (text) => (stdout += `${text}\n`),
    err: (text) => (stderr += `${text}\n`),
    dispatch: remoteDispatch,
    readStdin: () => Buffer.alloc(0),
    version: 'test',
  });
  return { code, stdout, stderr };
}

const json = (run: Run) => {
  if (run.code !== 0) throw new Error(`exit ${run.code}: ${run.stderr}${run.stdout}`);
  return JSON.parse(run.stdout);
};

describe('postwire, the command-line client, against the running stack', () => {
  it('prints its generated help: groups, a group, a command with its flags (exit 0)', async () => {
    const main = await spawned(['--help']);
    expect(main).toMatchObject({ code: 0, stdout: expect.stringContaining('Groups: domains, contacts') });
    const group = await postwire(['campaigns', '--help']);
    expect(group.stdout).toContain('postwire campaigns send <id>');
    const command = await postwire(['send', '--help']);
    expect(command.stdout).toMatch(/--html <string>\s+HTML with Liquid/);
    expect(command.stdout).toContain('POST /v1/send');
  });

  it('creates, lists, shows, updates and deletes a contact, in JSON and readable', async () => {
    const { project } = await tenant(stack);
    const env = { POSTWIRE_API_KEY: project.secret };
    const email = recipient();
    const created = json(await postwire(['contacts', 'create', '--email', email, '--data', '{"plan":"pro"}', '--json'], env));
    expect(created).toMatchObject({ email, data: { plan: 'pro' }, subscribed: true });
    const listed = json(await postwire(['contacts', 'list', '--search', email, '--json'], env));
    expect(listed.data.map((c: { id: string }) => c.id)).toEqual([created.id]);
    const table = await postwire(['contacts', 'list', '--search', email], env);
    expect(table.code).toBe(0);
    expect(table.stdout.split('\n')[0]).toMatch(/^id\s+email\s+subscribed/);
    expect(table.stdout).toContain(email);
    const shown = await postwire(['contacts', 'show', created.id], env);
    expect(shown).toMatchObject({ code: 0, stdout: expect.stringContaining(`email: ${email}`) });
    const updated = json(await postwire(['contacts', 'update', created.id, '--no-subscribed', '--json'], env));
    expect(updated.subscribed).toBe(false);
    const deleted = await postwire(['contacts', 'delete', created.id], env);
    expect(deleted.code).toBe(0);
    expect((await postwire(['contacts', 'get', created.id, '--json'], env)).code).toBe(1);
  });

  it('sends an email with postwire send, the body from a file: it reaches the SMTP sink', async () => {
    const { project, from } = await senderTenant(stack);
    const to = recipient();
    const file = path.join(dir, 'welcome.html');
    writeFileSync(file, '<p>Welcome aboard</p>');
    const sent = json(
      await spawned(['send', '--from', from, '--to', to, '--subject', 'From the CLI', '--html', `@${file}`, '--json'], {
        POSTWIRE_API_KEY: project.secret,
      }),
    );
    expect(sent.data.emails).toHaveLength(1);
    const mail = await stack.smtp.waitFor((m) => m.to.includes(to));
    expect(mail.raw).toContain('From the CLI');
  });

  it('sends a campaign with postwire campaigns send <id>, then cancels it', async () => {
    const t = await senderTenant(stack);
    const env = { POSTWIRE_API_KEY: t.project.secret };
    await t.c.post('/contacts').send({ email: recipient() }).expect(201);
    const campaign = await createCampaign(t);
    const sending = await postwire(['campaigns', 'send', campaign.id], env);
    expect(sending.code).toBe(0);
    expect(sending.stdout).toMatch(/^Campaign is being sent to 1 recipient\n\nid: .*\nname: Spring sale\nstatus: SENDING\n/);
    expect(json(await postwire(['campaigns', 'show', campaign.id, '--json'], env))).toMatchObject({ id: campaign.id, status: 'SENDING' });
    const cancelled = json(await postwire(['campaigns', 'cancel', campaign.id, '--json'], env));
    expect(cancelled).toMatchObject({ success: true, data: { id: campaign.id } });
  });

  it('imports a CSV file through the multipart route and polls its job', async () => {
    const { project } = await tenant(stack);
    const env = { POSTWIRE_API_KEY: project.secret };
    const file = path.join(dir, 'contacts.csv');
    writeFileSync(file, `email,plan\n${recipient()},pro\n`);
    const queued = json(await postwire(['contacts', 'import', '--file', file, '--json'], env));
    expect(queued.jobId).toMatch(/^import:/);
    const job = await postwire(['contacts', 'import', 'get', queued.jobId, '--json'], env);
    expect(json(job)).toMatchObject({ id: queued.jobId, result: { totalRows: 1 } });
  });

  it("prints the API's error with its suggestion, exit 1; --json prints the envelope", async () => {
    const { project } = await tenant(stack);
    const env = { POSTWIRE_API_KEY: project.secret };
    const bad = await postwire(['workflows', 'create', '--name', 'Welcome', '--trigger-type', 'EVENT'], env);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/^Error: .*\(VALIDATION_ERROR, HTTP 422\)\n {2}eventName: /);
    const missing = await postwire(['campaigns', 'send', '00000000-0000-4000-8000-000000000000', '--json'], env);
    expect(missing.code).toBe(1);
    expect(JSON.parse(missing.stdout)).toMatchObject({ success: false, error: { code: 'CAMPAIGN_NOT_FOUND', statusCode: 404 } });
    const publicKey = await postwire(['contacts', 'list'], { POSTWIRE_API_KEY: project.public });
    expect(publicKey.code).toBe(1);
    expect(publicKey.stderr).toContain('INVALID_API_KEY');
    expect(publicKey.stderr).toContain('Suggestion: Send Authorization: Bearer sk_');
  });

  it('reads the key and URL from a config file', async () => {
    const { project } = await tenant(stack);
    const file = path.join(dir, 'config.json');
    writeFileSync(file, JSON.stringify({ url: baseUrl(stack), apiKey: project.secret }));
    const run = await postwire(['contacts', 'list', '--json', '--config', file], { POSTWIRE_URL: undefined });
    expect(json(run)).toMatchObject({ data: [] });
  });

  it('exits 2 on a bad command line or no key, 4 when the API cannot be reached', async () => {
    const { project } = await tenant(stack);
    expect(await postwire(['nope'])).toMatchObject({ code: 2, stderr: expect.stringContaining('unknown command nope') });
    expect(await postwire(['contacts', 'list'])).toMatchObject({ code: 2, stderr: expect.stringContaining('POSTWIRE_API_KEY') });
    expect(await postwire(['contacts', 'get'], { POSTWIRE_API_KEY: project.secret })).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('id is required'),
    });
    expect(await postwire(['contacts', 'list', '--url', 'http://127.0.0.1:9'], { POSTWIRE_API_KEY: project.secret })).toMatchObject({
      code: 4,
      stderr: expect.stringContaining('could not reach the API at http://127.0.0.1:9'),
    });
  });
});
