import { execFile } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { startStack, type TestStack } from '../helpers/stack';
import { newTenant } from '../helpers/tenants';
import { ADMIN_TOKEN, projectRow } from './helpers';

/** `npm run admin -- …` (src/main/admin.ts) against a running API, as an operator types it. */
let stack: TestStack;
beforeAll(async () => {
  stack = await startStack({ env: { ADMIN_TOKEN } });
});
afterAll(() => stack?.close());

const script = path.resolve(__dirname, '..', '..', 'src', 'main', 'admin.ts');

function admin(args: string[], token = ADMIN_TOKEN): Promise<{ code: number; stdout: string; stderr: string }> {
  const { port } = stack.server.address() as AddressInfo;
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', script, ...args],
      { env: { ...process.env, ADMIN_TOKEN: token, PUBLIC_URL: `http://127.0.0.1:${port}` } },
      (err, stdout, stderr) => resolve({ code: err ? Number(err.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

describe('npm run admin', () => {
  it('lists, suspends, reinstates and reads the audit list, the same as the HTTP surface', async () => {
    const { user, project } = await newTenant(stack);
    const name = `Cli ${randomUUID().slice(0, 8)}`;
    await stack.http().patch(`/users/@me/projects/${project.id}`).set('Cookie', user.cookie).send({ name }).expect(200);

    const listed = await admin(['list', '--search', name]);
    expect(listed).toMatchObject({ code: 0, stderr: '' });
    const lines = listed.stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^ID\s+NAME\s+STATUS\s+SENT\s+BOUNCES\s+COMPLAINTS\s+OWNERS\s+REASON$/);
    expect(lines.slice(1)).toEqual([
      expect.stringMatching(new RegExp(`^${project.id}\\s+${name}\\s+active\\s+0\\s+0% healthy\\s+0% healthy\\s+${user.email}$`)),
    ]);

    const suspended = await admin(['suspend', project.id, 'Spam', 'complaints', 'from', 'a', 'provider']);
    expect(suspended).toMatchObject({ code: 0, stdout: `Suspended: ${project.id}  ${name}  SUSPENDED\n` });
    expect(await projectRow(stack, project.id)).toEqual({ disabled: true, disabled_reason: 'Spam complaints from a provider' });
    const again = await admin(['suspend', project.id, 'Twice']);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('409 The project is already suspended');

    const json = JSON.parse((await admin(['list', '--search', name, '--disabled', 'true', '--json'])).stdout);
    expect(json).toEqual([expect.objectContaining({ id: project.id, disabled: true, disabledReason: 'Spam complaints from a provider' })]);

    expect(await admin(['reinstate', project.id])).toMatchObject({ code: 0, stdout: `Reinstated: ${project.id}  ${name}  active\n` });
    expect((await projectRow(stack, project.id)).disabled).toBe(false);

    const audit = JSON.parse((await admin(['audit', '--limit', '200', '--json'])).stdout) as Array<{
      projectId: string;
      action: string;
      by: string;
      reason: string | null;
    }>;
    expect(audit.filter((a) => a.projectId === project.id).map((a) => [a.action, a.by, a.reason])).toEqual([
      ['reinstate', 'operator', null],
      ['suspend', 'operator', 'Spam complaints from a provider'],
    ]);
  }, 60_000);

  it('exits 1 with the reason: a wrong token, a missing reason, an unknown command', async () => {
    const wrong = await admin(['list'], `${ADMIN_TOKEN}-wrong`);
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toContain('401 Send Authorization: Bearer <ADMIN_TOKEN>');
    const { project } = await newTenant(stack);
    const noReason = await admin(['suspend', project.id]);
    expect(noReason.code).toBe(1);
    expect(noReason.stderr).toContain('suspend needs a reason');
    expect((await projectRow(stack, project.id)).disabled).toBe(false);
    const unknown = await admin(['frobnicate']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('Usage: npm run admin -- <command> [options]');
    const noToken = await admin(['list'], '');
    expect(noToken.code).toBe(1);
    expect(noToken.stderr).toContain('ADMIN_TOKEN');
  }, 60_000);
});
