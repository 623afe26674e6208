import type { TestStack } from './stack';
import { sql } from './seed';

const STAGES = ['sent', 'delivered', 'opened', 'clicked', 'bounced', 'complained', 'failed'] as const;

/**
 * A project's email rollups (email_stats, summed over hours and slots) beside the same figures counted from
 * its email rows, and its `email.sent` events beside its sent emails to contacts: equal when every counter
 * was written with the rows it counts.
 */
export async function rollupsAndRows(stack: TestStack, projectId: string) {
  const sums = ['billable', ...STAGES].map((c) => `coalesce(sum("${c}"), 0)::int as "${c}"`).join(', ');
  const counts = [
    `count(*) filter (where "status" <> 'FAILED')::int as "billable"`,
    ...STAGES.map((s) => `count("${s}_at")::int as "${s}"`),
  ].join(', ');
  const [rollups] = await sql<Record<string, number>>(stack, `select ${sums} from email_stats where project_id = ?`, [projectId]);
  const [rows] = await sql<Record<string, number>>(stack, `select ${counts} from emails where project_id = ?`, [projectId]);
  const [events] = await sql<{ sent: number }>(
    stack,
    `select (select count(*)::int from events where project_id = ? and name = 'email.sent') as sent`,
    [projectId],
  );
  const [contactMail] = await sql<{ sent: number }>(
    stack,
    `select count(*)::int as sent from emails where project_id = ? and sent_at is not null and contact_id is not null`,
    [projectId],
  );
  return { rollups, rows, sentEvents: events!.sent, sentToContacts: contactMail!.sent };
}
