import pino from 'pino';
import { GATHER_MS, GATHER_OUTCOMES, OutcomeWriter, type Outcome } from '../../src/modules/emails/delivery/outcomes';

/**
 * The outcome writer's batches (docs/delivery.md "The pump", step 4): a campaign's SENT marks wait for company,
 * everything else is written at once. Fake timers: the wait is GATHER_MS of the writer's clock, not the test's.
 */

const campaignSent = (id: string): Outcome => ({ kind: 'sent', id, campaignId: 'c1', at: new Date() });
const transactionalSent = (id: string): Outcome => ({ kind: 'sent', id, campaignId: null, at: new Date() });
const retry = (id: string): Outcome => ({ kind: 'retry', id, leaseId: 'l1', delayMs: 10_000, error: '451 later' });

function recordingWriter() {
  const batches: string[][] = [];
  const writer = new OutcomeWriter(
    async (batch) => {
      batches.push(batch.map((o) => o.id));
    },
    pino({ level: 'silent' }),
    () => undefined,
  );
  return { writer, batches };
}

/** Lets the writer's promises run without moving the clock. */
const settle = () => jest.advanceTimersByTimeAsync(0);

describe('OutcomeWriter', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it("writes a campaign's SENT marks together once GATHER_MS has passed, not one by one", async () => {
    const { writer, batches } = recordingWriter();
    writer.add(campaignSent('a'));
    await settle();
    writer.add(campaignSent('b'));
    await jest.advanceTimersByTimeAsync(GATHER_MS - 1);
    writer.add(campaignSent('c'));
    await settle();
    expect(batches).toEqual([]);
    await jest.advanceTimersByTimeAsync(1);
    expect(batches).toEqual([['a', 'b', 'c']]);
  });

  it("writes a transactional email's SENT mark at once", async () => {
    const { writer, batches } = recordingWriter();
    writer.add(transactionalSent('t'));
    await settle();
    expect(batches).toEqual([['t']]);
  });

  it('ends the wait when any other outcome arrives, and writes it with the waiting marks', async () => {
    const { writer, batches } = recordingWriter();
    writer.add(campaignSent('a'));
    await settle();
    writer.add(retry('r'));
    await settle();
    expect(batches).toEqual([['a', 'r']]);
  });

  it('ends the wait at GATHER_OUTCOMES marks', async () => {
    const { writer, batches } = recordingWriter();
    const ids = Array.from({ length: GATHER_OUTCOMES }, (_, i) => `m${i}`);
    for (const id of ids) writer.add(campaignSent(id));
    await settle();
    expect(batches).toEqual([ids]);
  });

  it('writes the waiting marks at once when the worker stops', async () => {
    const { writer, batches } = recordingWriter();
    writer.add(campaignSent('a'));
    await settle();
    const closed = writer.close();
    await settle();
    await closed;
    expect(batches).toEqual([['a']]);
  });
});
