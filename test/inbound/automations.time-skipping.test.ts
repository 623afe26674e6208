import { startEngine, type Engine } from '../automation/engine';
import { executionIn, executionsOf, linearWorkflow, waitingAt } from '../automation/helpers';
import { addContact } from '../segments/helpers';
import { senderTenant } from '../helpers/tenants';
import { waitFor } from '../helpers/wait';
import { deliverInbound, inboundOn } from './helpers';

let engine: Engine;
beforeAll(async () => {
  engine = await startEngine({ timeSkipping: true, smtpListeners: true });
}, 120_000);
afterAll(() => engine?.close());

describe('inbound mail in automations', () => {
  it('a reply ends the wait of a follow-up sequence, and email.received starts an automation of its own', async () => {
    const { stack } = engine;
    const t = await senderTenant(stack);
    await inboundOn(t);
    const ann = await addContact(t, 'ann@client.example.test', {});
    const followUp = await linearWorkflow(
      t,
      [
        ['WAIT_FOR_EVENT', { eventName: 'email.received', timeout: 3 * 86_400 }],
        ['UPDATE_CONTACT', { data: { replied: true } }],
      ],
      { eventName: 'asked', name: 'Follow-up until a reply' },
    );
    const onMail = await linearWorkflow(t, [['UPDATE_CONTACT', { data: { wrote: true } }]], {
      eventName: 'email.received',
      name: 'Anyone who writes',
    });

    await t.c.track({ email: 'ann@client.example.test', event: 'asked' }).expect(200);
    const waiting = await waitFor('the follow-up execution', async () =>
      (await executionsOf(t, followUp.workflow.id)).find((e) => e.contactId === ann),
    );
    await waitingAt(t, followUp.workflow.id, waiting.id, followUp.stepIds[0]!);

    await deliverInbound(stack, {
      from: 'ann@client.example.test',
      to: `sales@${t.domain}`,
      subject: 'Re: your offer',
      text: 'Yes please',
    });
    const done = await executionIn(t, followUp.workflow.id, waiting.id, ['COMPLETED'], 60_000);
    expect(done.status).toBe('COMPLETED');
    const started = await waitFor(
      'the execution email.received started',
      async () => (await executionsOf(t, onMail.workflow.id)).find((e) => e.contactId === ann),
      60_000,
    );
    await executionIn(t, onMail.workflow.id, started.id, ['COMPLETED'], 60_000);
    const contact = await t.c.get(`/contacts/${ann}`).expect(200);
    expect(JSON.stringify(contact.body)).toMatch(/"replied":true/);
    expect(JSON.stringify(contact.body)).toMatch(/"wrote":true/);
  });
});
