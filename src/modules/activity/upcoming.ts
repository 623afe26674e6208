import type { EntityManager } from '@mikro-orm/postgresql';
import { currentStepSql, executionResumesAtSql } from '../automations/resume-times';

interface CampaignRow {
  id: string;
  name: string;
  scheduled_for: string;
  total_recipients: number;
  total: string;
}

interface ExecutionRow {
  id: string;
  automation_id: string;
  automation_name: string;
  contact_id: string;
  contact_email: string | null;
  status: 'RUNNING' | 'WAITING';
  step_id: string | null;
  step_type: string | null;
  step_name: string | null;
  waiting_for: string | null;
  step_started_at: string;
  resumes_at: string | null;
  total: string;
}

const SCHEDULED = `
select "id", "name", "scheduled_for", "total_recipients", count(*) over () as "total"
from campaigns where "project_id" = ? and "status" = 'SCHEDULED'
order by "scheduled_for", "id" limit ?`;

// When a waiting execution moves on by itself, as its step's type says (the end of a DELAY, the timeout of a
// WAIT_FOR_EVENT; none when it waits for the event alone). The step is read from the definition the execution runs.
const ACTIVE = `
select x."id", x."automation_id", a."name" as "automation_name", x."contact_id", c."email" as "contact_email", x."status",
  st."step" ->> 'id' as "step_id", st."step" ->> 'type' as "step_type", st."step" ->> 'name' as "step_name",
  x."waiting_for", x."step_started_at", r."resumes_at", count(*) over () as "total"
from automation_executions x
join automations a on a."id" = x."automation_id"
left join contacts c on c."id" = x."contact_id"
left join lateral (select ${currentStepSql('x')} as "step") st on true
cross join lateral (select ${executionResumesAtSql('x', 'st."step"')} as "resumes_at") r
where x."project_id" = ? and x."status" in ('RUNNING', 'WAITING')
order by x."status" = 'WAITING', r."resumes_at" nulls last, x."step_started_at", x."id" limit ?`;

interface EmailRow {
  id: string;
  to_address: string;
  subject: string;
  scheduled_at: string;
  contact_id: string | null;
  contact_email: string | null;
  tags: Record<string, string>;
  total: string;
}

const EMAILS = `
select e."id", e."to_address", e."subject", e."scheduled_at", e."contact_id", c."email" as "contact_email", e."tags",
  count(*) over () as "total"
from emails e left join contacts c on c."id" = e."contact_id"
where e."project_id" = ? and e."release_at" is not null
order by e."release_at", e."id" limit ?`;

const iso = (pg: string | null) => (pg === null ? null : new Date(pg).toISOString());

/**
 * GET /activity/upcoming: campaigns waiting for their time, soonest first; executions under way: those
 * running now, then those waiting, by when they resume (waits for an event alone last); and scheduled
 * emails, soonest first.
 */
export async function upcoming(em: EntityManager, projectId: string, limit: number) {
  const [campaigns, executions, emails] = await Promise.all([
    em.execute<CampaignRow[]>(SCHEDULED, [projectId, limit]),
    em.execute<ExecutionRow[]>(ACTIVE, [projectId, limit]),
    em.execute<EmailRow[]>(EMAILS, [projectId, limit]),
  ]);
  return {
    campaigns: campaigns.map((c) => ({ id: c.id, name: c.name, scheduledFor: iso(c.scheduled_for)!, totalRecipients: c.total_recipients })),
    executions: executions.map((x) => ({
      id: x.id,
      workflow: { id: x.automation_id, name: x.automation_name },
      contact: x.contact_email === null ? null : { id: x.contact_id, email: x.contact_email },
      status: x.status,
      step: x.step_id && x.step_type ? { id: x.step_id, type: x.step_type, name: x.step_name } : null,
      waitingFor: x.waiting_for,
      since: iso(x.step_started_at)!,
      resumesAt: iso(x.resumes_at),
    })),
    emails: emails.map((e) => ({
      id: e.id,
      to: e.to_address,
      subject: e.subject,
      scheduledAt: iso(e.scheduled_at)!,
      contact: e.contact_id && e.contact_email ? { id: e.contact_id, email: e.contact_email } : null,
      tags: e.tags,
    })),
    totals: {
      campaigns: Number(campaigns[0]?.total ?? 0),
      executions: Number(executions[0]?.total ?? 0),
      emails: Number(emails[0]?.total ?? 0),
    },
  };
}
