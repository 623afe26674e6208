import { randomBytes } from 'node:crypto';
import type { TestStack } from '../helpers/stack';
import { parseMail } from '../helpers/mail';
import { sql } from '../helpers/seed';
import { waitFor } from '../helpers/wait';
import type { SenderTenant } from '../helpers/tenants';

export const SIM = 'simulator.postwire.test';
export const ADMIN_TOKEN = `admin-${randomBytes(24).toString('hex')}`;

/** A simulator address of its own for each email: `bounce+<random>@…`. */
export const simulator = (mailbox: 'delivered' | 'bounce' | 'complaint') => `${mailbox}+${randomBytes(5).toString('hex')}@${SIM}`;

/** Sends one email per address (up to 50 per request), as the integration would. */
export async function sendTo(t: SenderTenant, addresses: string[]): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < addresses.length; i += 50) {
    const res = await t.c
      .post('/v1/send')
      .send({ to: addresses.slice(i, i + 50), from: t.from, subject: 'Hello', body: '<p>Hello</p>' })
      .expect(200);
    ids.push(...res.body.data.emails.map((e: { email: string }) => e.email));
  }
  return ids;
}

/** Waits until each of these emails reached `status` (DELIVERED, BOUNCED, COMPLAINED: its feedback recorded). */
export async function settledAll(stack: TestStack, ids: string[], status: string, timeoutMs = 60_000): Promise<void> {
  await waitFor(
    `${ids.length} emails to be ${status}`,
    async () => {
      const [row] = await sql<{ n: number }>(stack, `select count(*)::int as n from emails where id = any(?::uuid[]) and status = ?`, [
        `{${ids.join(',')}}`,
        status,
      ]);
      return row!.n === ids.length ? true : undefined;
    },
    timeoutMs,
  );
}

export interface ProjectRow {
  disabled: boolean;
  disabled_reason: string | null;
}

export const projectRow = async (stack: TestStack, id: string) =>
  (await sql<ProjectRow>(stack, 'select disabled, disabled_reason from projects where id = ?', [id]))[0]!;

/** The decoded subjects of the emails that reached the SMTP server for `owner` (the signup's verification among them). */
export const subjectsTo = async (stack: TestStack, owner: string) =>
  Promise.all(stack.smtp.to(owner).map(async (m) => (await parseMail(m)).subject ?? ''));

export const admin = (stack: TestStack) => ({
  get: (path: string) => stack.http().get(path).set('Authorization', `Bearer ${ADMIN_TOKEN}`),
  post: (path: string) => stack.http().post(path).set('Authorization', `Bearer ${ADMIN_TOKEN}`),
});
