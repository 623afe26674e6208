import { startStack, type TestStack } from '../helpers/stack';
import { upsertContact } from '../../src/modules/contacts/write';
import { eventNamesOf, query } from './helpers';
import { tenant } from '../helpers/tenants';

let stack: TestStack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack.close());

const stateOf = async (id: string) =>
  (await query<{ subscribed: boolean }>(stack, 'select subscribed from contacts where id = ?', [id]))[0]!.subscribed;

describe('contact subscription state machine', () => {
  it('starts new contacts subscribed on POST /contacts and /v1/track, without a flip event', async () => {
    const { c } = await tenant(stack);
    const created = await c.post('/contacts').send({ email: 'new1@example.test' }).expect(201);
    expect(created.body.subscribed).toBe(true);
    expect(await eventNamesOf(stack, created.body.id)).toEqual([]);
    const tracked = await c.track({ email: 'new2@example.test', event: 'visit' }).expect(200);
    expect(await stateOf(tracked.body.data.contact)).toBe(true);
    expect(await eventNamesOf(stack, tracked.body.data.contact)).toEqual(['visit']);
    const explicit = await c.track({ email: 'new3@example.test', event: 'visit', subscribed: false }).expect(200);
    expect(await stateOf(explicit.body.data.contact)).toBe(false);
    expect(await eventNamesOf(stack, explicit.body.data.contact)).toEqual(['visit']);
  });

  it('starts contacts created for /v1/send unsubscribed (defaultSubscribed false)', async () => {
    const {
      project: { id: projectId },
    } = await tenant(stack);
    const { contact, isNew } = await upsertContact(
      stack.deps.orm.em.fork(),
      projectId,
      { email: 'sent@example.test' },
      { defaultSubscribed: false },
    );
    expect({ isNew, subscribed: contact.subscribed }).toEqual({ isNew: true, subscribed: false });
    const again = await upsertContact(
      stack.deps.orm.em.fork(),
      projectId,
      { email: 'sent@example.test', subscribed: true },
      { defaultSubscribed: false },
    );
    expect({ isNew: again.isNew, subscribed: again.contact.subscribed, flip: again.flip }).toEqual({
      isNew: false,
      subscribed: true,
      flip: 'contact.subscribed',
    });
  });

  it('emits one event per flip, whichever endpoint flips it, and none when the state is unchanged', async () => {
    const { c } = await tenant(stack);
    const { body } = await c.post('/contacts').send({ email: 'flip@example.test' }).expect(201);
    const id = body.id;
    await c.post('/contacts').send({ email: 'flip@example.test', subscribed: false }).expect(200);
    await c.post('/contacts').send({ email: 'flip@example.test', subscribed: false }).expect(200);
    await c.patch(`/contacts/${id}`).send({ subscribed: true }).expect(200);
    await c.patch(`/contacts/${id}`).send({ subscribed: true }).expect(200);
    await c.track({ email: 'flip@example.test', event: 'quit', subscribed: false }).expect(200);
    await c.post('/events/track').send({ email: 'flip@example.test', event: 'back', subscribed: true }).expect(200);
    await c.track({ email: 'flip@example.test', event: 'noop', subscribed: true }).expect(200);
    expect(await eventNamesOf(stack, id)).toEqual([
      'contact.unsubscribed',
      'contact.subscribed',
      'contact.unsubscribed',
      'quit',
      'contact.subscribed',
      'back',
      'noop',
    ]);
  });

  it('records /v1/track with subscribed:false on an unsubscribed contact without resubscribing it; omitting the state keeps it', async () => {
    const { c } = await tenant(stack);
    const { body } = await c.post('/contacts').send({ email: 'out@example.test', subscribed: false }).expect(201);
    const res = await c.track({ email: 'out@example.test', event: 'opened-app', subscribed: false }).expect(200);
    await c.track({ email: 'out@example.test', event: 'visited' }).expect(200);
    await c
      .post('/contacts')
      .send({ email: 'out@example.test', data: { x: 1 } })
      .expect(200);
    expect(res.body.data.contact).toBe(body.id);
    expect(await stateOf(body.id)).toBe(false);
    expect(await eventNamesOf(stack, body.id)).toEqual(['opened-app', 'visited']);
  });

  it('commits the flip event with the contact change, or neither', async () => {
    const {
      c,
      project: { id: projectId },
    } = await tenant(stack);
    const { body } = await c.post('/contacts').send({ email: 'atomic@example.test' }).expect(201);
    const em = stack.deps.orm.em.fork();
    await expect(
      em.transactional(async (tx) => {
        await upsertContact(tx, projectId, { email: 'atomic@example.test', subscribed: false }, { defaultSubscribed: true });
        throw new Error('the caller fails after the change');
      }),
    ).rejects.toThrow('the caller fails');
    expect(await stateOf(body.id)).toBe(true);
    expect(await eventNamesOf(stack, body.id)).toEqual([]);
    await upsertContact(
      stack.deps.orm.em.fork(),
      projectId,
      { email: 'atomic@example.test', subscribed: false },
      { defaultSubscribed: true },
    );
    expect(await stateOf(body.id)).toBe(false);
    expect(await eventNamesOf(stack, body.id)).toEqual(['contact.unsubscribed']);
  });
});
