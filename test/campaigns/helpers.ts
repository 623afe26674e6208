import { draftTo } from '../helpers/drafts';
import type { TestStack } from '../helpers/stack';
import { sql } from '../helpers/seed';
import { waitFor } from '../helpers/wait';
import type { SenderTenant, Tenant } from '../helpers/tenants';

export const campaignBody = (t: SenderTenant, overrides: Record<string, unknown> = {}) => ({
  name: 'Spring sale',
  subject: 'Hello {{ name ?? "friend" }}',
  body: '<p>Spring is here, {{ name ?? "friend" }}</p>',
  from: t.from,
  audienceType: 'ALL',
  ...overrides,
});

export type CampaignJson = Record<string, unknown> & { id: string; status: string; name: string };

export async function createCampaign(t: SenderTenant, overrides: Record<string, unknown> = {}): Promise<CampaignJson> {
  const res = await t.c.post('/campaigns').send(campaignBody(t, overrides));
  if (res.status !== 201) throw new Error(`POST /campaigns answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body.data;
}

/** Polls the campaign through the API until it is SENT, and returns it. */
export const sentCampaign = (t: Tenant, id: string, timeoutMs: number): Promise<CampaignJson> =>
  waitFor(
    'the campaign to be SENT',
    async () => {
      const body = (await t.c.get(`/campaigns/${id}`).expect(200)).body as CampaignJson;
      return body.status === 'SENT' ? body : undefined;
    },
    timeoutMs,
  );

/** Contacts written as POST /contacts stores them, `count` at a time (volume, not behaviour, is the point). */
export async function seedContacts(
  stack: TestStack,
  projectId: string,
  count: number,
  options: { prefix?: string; subscribed?: boolean; data?: Record<string, unknown> } = {},
): Promise<void> {
  await sql(
    stack,
    `insert into contacts (id, created_at, updated_at, project_id, email, subscribed, data)
     select gen_random_uuid(), now(), now(), ?, ? || '-' || i || '@example.test', ?, ?::jsonb from generate_series(1, ?) i`,
    [projectId, options.prefix ?? 'reader', options.subscribed ?? true, JSON.stringify(options.data ?? {}), count],
  );
}

/**
 * `count` new contacts of the tenant (addresses `<name>-<project>-<i>@example.test`), a campaign, and its email to
 * each of them as a draft (subject `name`), for tests that enqueue a campaign's emails themselves.
 */
export async function campaignDrafts(stack: TestStack, t: SenderTenant, count: number, name: string) {
  const prefix = `${name}-${t.project.id.slice(0, 8)}`;
  await seedContacts(stack, t.project.id, count, { prefix });
  const contacts = await sql<{ id: string; email: string }>(
    stack,
    'select id, email from contacts where project_id = ? and email like ? order by email',
    [t.project.id, `${prefix}-%`],
  );
  const campaign = await createCampaign(t);
  const drafts = contacts.map((c) => draftTo(t.project.id, c, t.from, { subject: name, html: '<p>Hi</p>', campaignId: campaign.id }));
  return { prefix, contacts, campaign, drafts };
}

/** What the database holds for the project's campaigns, to prove what a request did or did not change. */
export async function campaignState(stack: TestStack, projectId: string) {
  const campaigns = await sql(stack, 'select * from campaigns where project_id = ? order by id', [projectId]);
  const recipients = await sql(
    stack,
    'select r.* from campaign_recipients r join campaigns c on c.id = r.campaign_id where c.project_id = ? order by r.campaign_id, r.contact_id',
    [projectId],
  );
  const emails = await sql(stack, 'select id, status, campaign_id from emails where project_id = ? order by id', [projectId]);
  return { campaigns, recipients, emails };
}

export async function campaignRow(stack: TestStack, id: string): Promise<Record<string, unknown>> {
  const [row] = await sql(stack, 'select * from campaigns where id = ?', [id]);
  if (!row) throw new Error(`no campaign ${id}`);
  return row;
}
