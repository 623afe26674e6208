import { randomUUID } from 'node:crypto';
import type { Test } from 'supertest';
import type { TestStack } from '../helpers/stack';
import type { TestProject } from '../helpers/fixtures';
import { sql } from '../helpers/seed';
import { waitFor } from '../helpers/wait';
import { bearer } from '../domains/helpers';

export const send = (stack: TestStack, project: TestProject, body: unknown): Test =>
  stack
    .http()
    .post('/v1/send')
    .set('Authorization', bearer(project))
    .send(body as object);

export const recipient = (prefix = 'reader') => `${prefix}-${randomUUID().slice(0, 8)}@example.test`;

export interface EmailRow {
  id: string;
  status: string;
  error: string | null;
  attempts: number;
  contact_id: string | null;
  to_address: string;
  sent_at: string | null;
  failed_at: string | null;
}

export async function emailRow(stack: TestStack, id: string): Promise<EmailRow> {
  const [row] = await sql<EmailRow>(stack, 'select * from emails where id = ?', [id]);
  if (!row) throw new Error(`no email ${id}`);
  return row;
}

/** Waits until the email has left PENDING, and returns it. */
export const settled = (stack: TestStack, id: string, timeoutMs = 15_000): Promise<EmailRow> =>
  waitFor(
    `email ${id} to leave PENDING`,
    async () => {
      const row = await emailRow(stack, id);
      return row.status === 'PENDING' ? undefined : row;
    },
    timeoutMs,
  );

/** What a request stored for the project: nothing, after a refused request. */
export async function storedCounts(stack: TestStack, projectId: string): Promise<{ emails: number; contacts: number; events: number }> {
  const [row] = await sql<{ emails: string; contacts: string; events: string }>(
    stack,
    `select (select count(*) from emails where project_id = ?) as emails,
            (select count(*) from contacts where project_id = ?) as contacts,
            (select count(*) from events where project_id = ?) as events`,
    [projectId, projectId, projectId],
  );
  return { emails: Number(row!.emails), contacts: Number(row!.contacts), events: Number(row!.events) };
}

/** A base64 file of `bytes` bytes. */
export const fileOf = (bytes: number, fill = 'a') => Buffer.alloc(bytes, fill).toString('base64');
