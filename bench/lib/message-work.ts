import { generateKeyPairSync, randomUUID, sign } from 'node:crypto';
import { loadConfig } from '../../src/config';
import { campaignDraft, type CampaignContent } from '../../src/modules/campaigns/drafts';
import { signedMessage } from '../../src/modules/emails/compose';
import { decorate, type SendingContext } from '../../src/modules/emails/decorate';
import type { OutgoingEmail } from '../../src/modules/emails/outgoing';
import type { RecipientContact } from '../../src/modules/templates/render';
import { CAMPAIGN_CONTENT } from './campaign-content';
import { median } from './node-process';
import { freshSecrets } from './secrets';

/** CPU per email of each stage of the message work, and of one RSA-2048 signature with the same key, in ms. */
export interface MessageWork {
  render: number;
  decorate: number;
  buildAndSign: number;
  signature: number;
}

/**
 * What a campaign email costs the worker in its own work on the message, with no database, Temporal or SMTP:
 * rendering the campaign bench's campaign for the recipient, decorating it (tracking, List-Unsubscribe), and
 * building and DKIM-signing it, each stage alone over `emails` recipients, `rounds` times after a round that
 * warms the code up; the median round of each. In this process: run it before or after, not during, what it
 * calibrates.
 */
export async function messageWork(emails: number, rounds: number): Promise<MessageWork> {
  const config = loadConfig({
    ...process.env,
    DATABASE_URL: 'postgres://bench@127.0.0.1/unused',
    ...freshSecrets(),
    PUBLIC_URL: 'https://postwire.example.com',
  });
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const key = { domainName: 'example.com', keySelector: 'postwire', privateKey };
  const campaign: CampaignContent = {
    id: randomUUID(),
    projectId: randomUUID(),
    subject: CAMPAIGN_CONTENT.subject,
    body: CAMPAIGN_CONTENT.body,
    text: null,
    from: 'news@example.com',
    fromName: 'News',
    replyTo: null,
    type: 'MARKETING',
    tags: {},
    topicId: null,
  };
  const contacts: RecipientContact[] = Array.from({ length: emails }, (_, i) => ({
    id: randomUUID(),
    email: `reader-${i}@example.org`,
    subscribed: true,
    data: { name: `Reader ${i}` },
  }));
  const context = (i: number): SendingContext => ({ contactId: contacts[i]!.id, marketing: true, topicId: null, trackingMode: 'ENABLED' });
  const outgoing: OutgoingEmail[] = [];
  for (const contact of contacts) outgoing.push({ ...(await campaignDraft(config, campaign, contact)), id: randomUUID() });
  const decorated = outgoing.map((email, i) => decorate(config, email, context(i)));
  // What the signature covers: the canonical header fields, about this long.
  const headers = Buffer.alloc(700, 'h');

  const stages: Record<keyof MessageWork, (i: number) => unknown> = {
    render: (i) => campaignDraft(config, campaign, contacts[i]!),
    decorate: (i) => decorate(config, outgoing[i]!, context(i)),
    buildAndSign: (i) => signedMessage(decorated[i]!, key),
    signature: () => sign('sha256', headers, privateKey),
  };
  const figures: Record<keyof MessageWork, number[]> = { render: [], decorate: [], buildAndSign: [], signature: [] };
  for (let round = 0; round <= rounds; round++) {
    for (const name of Object.keys(stages) as Array<keyof MessageWork>) {
      const before = process.cpuUsage();
      for (let i = 0; i < emails; i++) await stages[name](i);
      const used = process.cpuUsage(before);
      if (round > 0) figures[name].push((used.user + used.system) / 1000 / emails);
    }
  }
  return {
    render: median(figures.render),
    decorate: median(figures.decorate),
    buildAndSign: median(figures.buildAndSign),
    signature: median(figures.signature),
  };
}

/** All of the message work of one email. */
export const messageWorkMs = (work: MessageWork) => work.render + work.decorate + work.buildAndSign;

/** The stages' figures, for a report line. */
export const messageWorkStages = (work: MessageWork) =>
  `rendering ${work.render.toFixed(3)} ms, decorating ${work.decorate.toFixed(3)} ms, building and signing ${work.buildAndSign.toFixed(3)} ms`;
