import { randomBytes } from 'node:crypto';
import type { WorkflowHandle, WorkflowHandleWithFirstExecutionRunId } from '@temporalio/client';
import type { CampaignActivities } from '../../activities/campaigns';
import type { SendRef } from '../../src/modules/campaigns/send-run';
import type { campaignSend } from '../../workflows/campaigns/send';
import { ENQUEUE_AHEAD_BATCHES, ENQUEUE_CONCURRENCY, SNAPSHOT_FACTOR, type CampaignSendInput } from '../../workflows/campaigns/ids';
import { RUN_EVENTS } from '../../workflows/run-length';
import { stubActivityWorker } from '../helpers/temporal-env';

/**
 * The campaign send's phase machine (workflows/campaigns/send.ts) with stub activities: which step runs
 * when, with what, and where a send that stopped ends. What each step does in the database is the stack
 * tests' concern (test/campaigns/*).
 */

const DAY = 24 * 60 * 60 * 1000;
const ASOF = '2026-01-01T00:00:00.000Z';
const taskQueue = `campaign-send-${randomBytes(4).toString('hex')}`;

/** Each campaign's stub, by campaign id: one worker serves the whole file. */
const campaigns = new Map<string, CampaignActivities>();
const stubFor = (ref: SendRef) => {
  const stub = campaigns.get(ref.campaignId);
  if (!stub) throw new Error(`no stub for campaign ${ref.campaignId}`);
  return stub;
};
const activities: CampaignActivities = {
  beginCampaignSend: (ref) => stubFor(ref).beginCampaignSend(ref),
  snapshotCampaignRecipients: (input) => stubFor(input).snapshotCampaignRecipients(input),
  enqueueCampaignEmails: (input) => stubFor(input).enqueueCampaignEmails(input),
  assignCampaignTestShare: (input) => stubFor(input).assignCampaignTestShare(input),
  decideCampaignWinner: (ref) => stubFor(ref).decideCampaignWinner(ref),
  awaitCampaignDelivery: (input) => stubFor(input).awaitCampaignDelivery(input),
  finishCampaignSend: (ref) => stubFor(ref).finishCampaignSend(ref),
};

const env = stubActivityWorker(taskQueue, activities);

type Stage = 'begin' | 'snapshot' | 'assign' | 'enqueue' | 'room' | 'deliver' | 'decide' | 'finish';

interface Model {
  recipients: number;
  /** Emails handed to SMTP per delivery wait (and per wait for room in the queue). */
  deliveredPerWait?: number;
  /** Snapshot pages that report more to come whatever their size, before the real walk (a long send). */
  extraPages?: number;
  /** The step at which the campaign no longer carries this send (cancelled or restarted). */
  stopAt?: { stage: Stage; from?: number };
  /** Called as each step begins, with the environment's time. */
  onBegin?: (at: number) => void;
  /** The project is suspended with this reason when delivery begins, until `reinstated` resolves. */
  suspended?: { reason: string; reinstated: Promise<void> };
  /** An A/B test: the test share's size, and the winner the decision finds. */
  ab?: { share: number; winner: number };
}

const ids = (n: number) => Array.from({ length: n }, (_, i) => `r${String(i + 1).padStart(6, '0')}`);

/** A campaign in memory, as the activities would find it, and the log of the steps asked of it. */
function stubCampaign(model: Model) {
  const all = ids(model.recipients);
  const log: string[] = [];
  const snapshots: Array<{ after: string | null; last: string | null }> = [];
  const froms: number[] = [];
  let extra = model.extraPages ?? 0;
  let created = 0;
  let pending = 0;
  let mostPending = 0;
  const stops = (stage: Stage, from?: number) =>
    model.stopAt?.stage === stage && (model.stopAt.from === undefined || model.stopAt.from === from);
  const activities: CampaignActivities = {
    async beginCampaignSend(_ref: SendRef) {
      log.push('begin');
      model.onBegin?.(await env().currentTimeMs());
      return stops('begin') ? null : { asOf: ASOF };
    },
    async snapshotCampaignRecipients(input) {
      log.push('snapshot');
      if (input.asOf !== ASOF) throw new Error(`snapshot as of ${input.asOf}`);
      if (stops('snapshot')) return null;
      if (extra > 0) {
        extra--;
        const last = `page-${snapshots.length + 1}`;
        snapshots.push({ after: input.after, last });
        return { last, total: null };
      }
      const start = input.after === null || input.after.startsWith('page-') ? 0 : all.indexOf(input.after) + 1;
      const page = all.slice(start, start + input.size);
      const last = page[page.length - 1] ?? null;
      snapshots.push({ after: input.after, last });
      return page.length === input.size ? { last, total: null } : { last, total: all.length };
    },
    async assignCampaignTestShare(input) {
      log.push(`assign ${input.plan.testPercent}% in ${input.plan.variants}`);
      return stops('assign') ? null : { size: model.ab!.share };
    },
    async decideCampaignWinner() {
      log.push(`decide at ${await env().currentTimeMs()}`);
      return stops('decide') ? null : { winner: model.ab!.winner };
    },
    async enqueueCampaignEmails(input) {
      log.push(input.ab ? `enqueue ${input.ab.part === 'test' ? 'test' : `rest ${input.ab.winner}`}` : 'enqueue');
      froms.push(input.from);
      if (stops('enqueue', input.from)) return null;
      // An A/B test's share is the first positions here (the real draw is random, test/campaigns/ab-test.test.ts).
      const positions = Array.from({ length: Math.max(0, Math.min(input.size, all.length - input.from)) }, (_, i) => input.from + i);
      const share = model.ab?.share ?? 0;
      const inPart = (p: number) => (input.ab === undefined ? true : input.ab.part === 'test' ? p < share : p >= share);
      const emails = positions.filter(inPart).length;
      created += emails;
      pending += emails;
      mostPending = Math.max(mostPending, pending);
      return { processed: emails, emails, pending };
    },
    async awaitCampaignDelivery(input) {
      const stage = input.below === undefined ? 'deliver' : 'room';
      log.push(`${stage} ${input.pending}${input.below === undefined ? '' : ` to ${input.below}`}${input.held ? ' (held)' : ''}`);
      if (stops(stage)) return null;
      if (model.suspended && !input.held) return { pending, held: model.suspended.reason };
      if (model.suspended) await model.suspended.reinstated;
      pending = Math.max(0, pending - (model.deliveredPerWait ?? created));
      return { pending, held: null };
    },
    async finishCampaignSend() {
      log.push('finish');
      return !stops('finish');
    },
  };
  return { activities, log, snapshots, froms, mostPending: () => mostPending };
}

const input = (overrides: Partial<CampaignSendInput> = {}): CampaignSendInput => ({
  campaignId: `c-${randomBytes(4).toString('hex')}`,
  projectId: 'p-1',
  sendId: 's-1',
  scheduledFor: null,
  batchSize: 2,
  ...overrides,
});

/** Runs one send to its end with the stub's activities; returns its outcome and the handle. */
async function run(stub: ReturnType<typeof stubCampaign>, args: CampaignSendInput) {
  campaigns.set(args.campaignId, stub.activities);
  const handle = await env().client.workflow.start<typeof campaignSend>('campaignSend', {
    taskQueue,
    workflowId: `campaign:${args.campaignId}`,
    args: [args],
  });
  return { outcome: await handle.result(), handle };
}

/** How many email batches each workflow task scheduled side by side, in order. */
async function enqueueWindows(handle: WorkflowHandle) {
  const events = (await handle.fetchHistory()).events ?? [];
  const windows = new Map<string, number>();
  for (const e of events) {
    const scheduled = e?.activityTaskScheduledEventAttributes;
    if (scheduled?.activityType?.name !== 'enqueueCampaignEmails') continue;
    const task = String(scheduled.workflowTaskCompletedEventId);
    windows.set(task, (windows.get(task) ?? 0) + 1);
  }
  return [...windows.values()];
}

/** The summaries the Temporal UI shows for the first run's activities of one type, in order. */
async function activitySummaries(handle: WorkflowHandleWithFirstExecutionRunId, type: keyof CampaignActivities): Promise<string[]> {
  const first = env().client.workflow.getHandle(handle.workflowId, handle.firstExecutionRunId);
  return ((await first.fetchHistory()).events ?? [])
    .filter((e) => e.activityTaskScheduledEventAttributes?.activityType?.name === type)
    .map((e) => JSON.parse(Buffer.from(e.userMetadata!.summary!.data!).toString()) as string);
}

const compact = (log: string[]) => log.filter((entry, i) => !entry.startsWith('enqueue') || log[i - 1] !== entry);

describe('campaign send workflow: the phases in order', () => {
  it('fixes the recipients page by page, creates the emails in windows of batches, waits until none is pending, then finishes', async () => {
    // 25 recipients in batches of 2: two snapshot pages, 13 email batches, 10 emails handed over per wait. The third
    // window waits for room: 16 queued, at most 8 before a window of 4 batches (ENQUEUE_AHEAD_BATCHES of 2).
    const stub = stubCampaign({ recipients: 25, deliveredPerWait: 10 });
    const { outcome, handle } = await run(stub, input({ batchSize: 2 }));

    expect(outcome).toBe('SENT');
    expect(compact(stub.log)).toEqual([
      'begin',
      'snapshot',
      'snapshot',
      'enqueue',
      'room 16 to 8',
      'enqueue',
      'deliver 15',
      'deliver 5',
      'finish',
    ]);
    const page = ids(2 * SNAPSHOT_FACTOR).pop();
    expect(stub.snapshots).toEqual([
      { after: null, last: page },
      { after: page, last: 'r000025' },
    ]);
    expect([...stub.froms].sort((a, b) => a - b)).toEqual(Array.from({ length: 13 }, (_, k) => 2 * k));
    const windows = Array.from({ length: Math.ceil(13 / ENQUEUE_CONCURRENCY) }, (_, w) =>
      Math.min(ENQUEUE_CONCURRENCY, 13 - w * ENQUEUE_CONCURRENCY),
    );
    expect(await enqueueWindows(handle)).toEqual(windows);
  });

  it('goes straight to delivery and finishes when the audience is empty', async () => {
    const stub = stubCampaign({ recipients: 0 });
    const { outcome } = await run(stub, input());
    expect(outcome).toBe('SENT');
    expect(stub.log).toEqual(['begin', 'snapshot', 'deliver 0', 'finish']);
  });

  it('begins only once the scheduled time has come, on a durable timer', async () => {
    const scheduledFor = (await env().currentTimeMs()) + 3 * DAY;
    let begunAt = 0;
    const stub = stubCampaign({ recipients: 1, onBegin: (at) => (begunAt = at) });
    const { outcome } = await run(stub, input({ scheduledFor: new Date(scheduledFor).toISOString() }));
    expect(outcome).toBe('SENT');
    expect(begunAt).toBeGreaterThanOrEqual(scheduledFor);
    expect(begunAt).toBeLessThan(scheduledFor + DAY);
  });
});

describe('campaign send workflow: creating the emails ahead of delivery', () => {
  it(`keeps at most ${ENQUEUE_AHEAD_BATCHES} batches queued: a window starts only once delivery left room for it`, async () => {
    // 30 batches of 2, delivery slower than creation: 3 emails handed over per wait.
    const stub = stubCampaign({ recipients: 60, deliveredPerWait: 3 });
    const { outcome, handle } = await run(stub, input({ batchSize: 2 }));
    expect(outcome).toBe('SENT');
    expect(stub.mostPending()).toBe(ENQUEUE_AHEAD_BATCHES * 2);
    expect([...stub.froms].sort((a, b) => a - b)).toEqual(Array.from({ length: 30 }, (_, k) => 2 * k));
    const waits = stub.log.filter((entry) => entry.startsWith('room'));
    expect(waits.length).toBeGreaterThan(5);
    // What the Temporal UI shows for each.
    const summaries = await activitySummaries(handle, 'awaitCampaignDelivery');
    expect(summaries).toContain('Wait for delivery to catch up: 16 emails queued, the next batches at 8');
  });
});

describe('campaign send workflow: a long send continues as new', () => {
  it(`once a run holds ${RUN_EVENTS} history events, from where it stood: no step repeated, none skipped, the send begun once`, async () => {
    // A snapshot page adds six events: enough pages for a few runs.
    const extraPages = Math.ceil((3 * RUN_EVENTS) / 6);
    const stub = stubCampaign({ recipients: 3, extraPages });
    const { outcome, handle } = await run(stub, input({ batchSize: 5 }));

    expect(outcome).toBe('SENT');
    const first = await env().client.workflow.getHandle(handle.workflowId, handle.firstExecutionRunId).describe();
    expect(first.status.name).toBe('CONTINUED_AS_NEW');
    expect(stub.log.filter((e) => e === 'begin')).toHaveLength(1);
    // Each page starts where the one before ended, across the two runs.
    expect(stub.snapshots).toHaveLength(extraPages + 1);
    stub.snapshots.forEach((s, i) => expect(s.after).toBe(i === 0 ? null : stub.snapshots[i - 1]!.last));
    expect(stub.log.slice(-3)).toEqual(['enqueue', 'deliver 3', 'finish']);
  });
});

describe('campaign send workflow: a send that stopped (cancelled, restarted, deleted) ends STOPPED at once', () => {
  const cases: Array<[what: string, stopAt: Model['stopAt'], log: string[]]> = [
    ['before it began', { stage: 'begin' }, ['begin']],
    ['while fixing the recipients', { stage: 'snapshot' }, ['begin', 'snapshot']],
    // The second window's batch at position 10 finds the send gone: the window ends, no third one starts.
    ['while creating the emails', { stage: 'enqueue', from: 10 }, ['begin', 'snapshot', 'snapshot', 'enqueue']],
    ['while waiting for room in the queue', { stage: 'room' }, ['begin', 'snapshot', 'snapshot', 'enqueue', 'room 16 to 8']],
    [
      'while waiting for delivery',
      { stage: 'deliver' },
      ['begin', 'snapshot', 'snapshot', 'enqueue', 'room 16 to 8', 'enqueue', 'deliver 9'],
    ],
    ['as it finishes', { stage: 'finish' }, ['begin', 'snapshot', 'snapshot', 'enqueue', 'room 16 to 8', 'enqueue', 'deliver 9', 'finish']],
  ];

  it.each(cases)('%s', async (_what, stopAt, log) => {
    const stub = stubCampaign({ recipients: 25, stopAt });
    const { outcome } = await run(stub, input({ batchSize: 2 }));
    expect(outcome).toBe('STOPPED');
    expect(compact(stub.log)).toEqual(log);
    if (stopAt?.stage === 'enqueue') expect([...stub.froms].sort((a, b) => a - b)).toEqual([0, 2, 4, 6, 8, 10, 12, 14]);
  });
});

describe('campaign send workflow: while the project is suspended', () => {
  const reason = 'Complaint rate 0.8% over 7 days is above the critical level of 0.5%';

  /**
   * Starts a send of `recipients` in batches of `batchSize` whose project is suspended, and waits until the stub
   * logged `entry`; the run's current details then say why its emails wait.
   */
  async function heldUntilReinstated(recipients: number, batchSize: number, entry: string) {
    let reinstate = () => {};
    const reinstated = new Promise<void>((resolve) => (reinstate = resolve));
    const stub = stubCampaign({ recipients, suspended: { reason, reinstated } });
    const args = input({ batchSize });
    campaigns.set(args.campaignId, stub.activities);
    const handle = await env().client.workflow.start<typeof campaignSend>('campaignSend', {
      taskQueue,
      workflowId: `campaign:${args.campaignId}`,
      args: [args],
    });
    for (let i = 0; i < 200 && !stub.log.includes(entry); i++) await new Promise((r) => setTimeout(r, 25));
    const metadata = (await handle.query('__temporal_workflow_metadata')) as { currentDetails?: string };
    expect(metadata.currentDetails).toBe(
      `Sent 0 / ${recipients}; held: the project is suspended (${reason}); the other emails go once it is reinstated`,
    );
    return { stub, handle, reinstate };
  }

  it("waits for its held emails, saying why in the current details and the wait's summary, and finishes once they went", async () => {
    const { stub, handle, reinstate } = await heldUntilReinstated(5, 5, 'deliver 5 (held)');

    reinstate();
    expect(await handle.result()).toBe('SENT');
    expect(stub.log).toEqual(['begin', 'snapshot', 'enqueue', 'deliver 5', 'deliver 5 (held)', 'finish']);
    expect(await activitySummaries(handle, 'awaitCampaignDelivery')).toEqual([
      'Wait for 5 emails to be handed to SMTP',
      'Wait for the project to be reinstated: 5 emails held',
    ]);
  });

  it('says so while its emails wait for room in the queue, and creates the rest once reinstated', async () => {
    const { stub, handle, reinstate } = await heldUntilReinstated(40, 2, 'room 16 to 8 (held)');
    expect(stub.mostPending()).toBe(16);

    reinstate();
    expect(await handle.result()).toBe('SENT');
    expect([...stub.froms].sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, k) => 2 * k));
    expect((await activitySummaries(handle, 'awaitCampaignDelivery')).slice(0, 2)).toEqual([
      'Wait for delivery to catch up: 16 emails queued, the next batches at 8',
      'Wait for the project to be reinstated: 16 emails held',
    ]);
  });
});

describe('campaign send workflow: an A/B test', () => {
  const MINUTE = 60_000;
  const plan = (winnerBy: 'OPENS' | 'CLICKS' | 'MANUAL') => ({ variants: 2, testPercent: 20, waitMinutes: 90, winnerBy });
  /** Where the log says the decision was taken, and when. */
  const decidedAt = (log: string[]) => Number(log.find((e) => e.startsWith('decide at '))!.slice('decide at '.length));

  it('sends the variants to the test share, waits its time (skipped), decides the winner and sends it to the rest', async () => {
    const stub = stubCampaign({ recipients: 10, ab: { share: 2, winner: 1 } });
    const args = input({ batchSize: 5, ab: plan('OPENS') });
    campaigns.set(args.campaignId, stub.activities);
    const handle = await env().client.workflow.start<typeof campaignSend>('campaignSend', {
      taskQueue,
      workflowId: `campaign:${args.campaignId}`,
      args: [args],
    });
    expect(await handle.result()).toBe('SENT');
    const log = stub.log.filter((e) => !e.startsWith('decide at '));
    expect(compact(log)).toEqual([
      'begin',
      'snapshot',
      'assign 20% in 2',
      'enqueue test',
      'deliver 2',
      'enqueue rest 1',
      'deliver 8',
      'finish',
    ]);
    // The wait began once the test share had been handed over, and lasted its 90 minutes.
    const history = (await handle.fetchHistory()).events ?? [];
    const timer = history.find((e) => e.timerStartedEventAttributes)?.timerStartedEventAttributes;
    expect(Number(timer?.startToFireTimeout?.seconds)).toBe(90 * 60);
    const timerEvent = history.find((e) => e.timerStartedEventAttributes)!;
    expect(Buffer.from(timerEvent.userMetadata!.summary!.data!).toString()).toMatch(
      /^"Watch the variants' opens until .*, or a choice by hand"$/,
    );
    expect(history.some((e) => e.timerFiredEventAttributes)).toBe(true);
    expect(stub.log.filter((e) => e.startsWith('decide at '))).toHaveLength(1);
    const patches = history
      .flatMap((e) => e.markerRecordedEventAttributes?.details?.['patch-data']?.payloads ?? [])
      .map((p) => Buffer.from(p.data!).toString());
    expect(patches.some((p) => p.includes('campaign-ab-tests'))).toBe(true);
  });

  it('chosen by hand: waits for the choice however long it takes, and a signal ends the wait at once', async () => {
    const stub = stubCampaign({ recipients: 6, ab: { share: 2, winner: 0 } });
    const args = input({ batchSize: 5, ab: plan('MANUAL') });
    campaigns.set(args.campaignId, stub.activities);
    const handle = await env().client.workflow.start<typeof campaignSend>('campaignSend', {
      taskQueue,
      workflowId: `campaign:${args.campaignId}`,
      args: [args],
    });
    const waiting = async () => {
      for (let i = 0; i < 2_000; i++) {
        const metadata = (await handle.query('__temporal_workflow_metadata')) as { currentDetails?: string };
        if (metadata.currentDetails?.includes('waiting for the winner to be chosen by hand')) return metadata.currentDetails;
        await new Promise((r) => setTimeout(r, 25));
      }
      throw new Error('the run never waited for the choice');
    };
    expect(await waiting()).toBe('A/B test: the variants went to 2 recipients; waiting for the winner to be chosen by hand');
    const before = await env().currentTimeMs();
    await env().sleep(30 * DAY);
    expect(stub.log.some((e) => e.startsWith('decide'))).toBe(false);
    await handle.signal('campaignWinnerChosen');
    expect(await handle.result()).toBe('SENT');
    expect(decidedAt(stub.log)).toBeGreaterThanOrEqual(before + 30 * DAY - MINUTE);
    expect(stub.log.slice(-4)).toEqual(['enqueue rest 0', 'enqueue rest 0', 'deliver 4', 'finish']);
  });

  it.each<[string, Stage, string]>([
    ['while drawing the test share', 'assign', 'assign 20% in 2'],
    ['as the winner is decided', 'decide', 'decide'],
  ])('ends STOPPED when the send is gone %s', async (_what, stage, last) => {
    const stub = stubCampaign({ recipients: 10, ab: { share: 2, winner: 1 }, stopAt: { stage } });
    const { outcome } = await run(stub, input({ batchSize: 5, ab: plan('CLICKS') }));
    expect(outcome).toBe('STOPPED');
    expect(stub.log[stub.log.length - 1]!.startsWith(last)).toBe(true);
  });
});
