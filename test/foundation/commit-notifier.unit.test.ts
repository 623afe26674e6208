import { MikroORM } from '@mikro-orm/postgresql';
import type { FlushEventArgs } from '@mikro-orm/core';
import { CommitNotifier } from '../../src/db/commit-notifier';
import { ormOptions } from '../../src/db/orm';
import { schema } from '../../src/app/orm';

/** An entity manager outside any transaction whose connection records each notification and holds it open until told. */
function recordingEm() {
  const sends: Array<{ channel: unknown; finish: () => void }> = [];
  const connection = {
    execute: (_sql: string, [channel]: unknown[]) => new Promise<void>((finish) => sends.push({ channel, finish })),
  };
  const em = { getTransactionContext: () => undefined, getConnection: () => connection } as unknown as FlushEventArgs['em'];
  return { em, sends };
}

const settled = () => new Promise((r) => setImmediate(r));

describe('CommitNotifier.close', () => {
  it('waits for the notification under way, then sends none of those signalled meanwhile or after', async () => {
    const notifier = new CommitNotifier({});
    const { em, sends } = recordingEm();
    notifier.afterCommitOf(em, new Set(['outbox']));
    // A commit while the first notification is under way would be announced by one more, after it.
    notifier.afterCommitOf(em, new Set(['outbox']));
    expect(sends.map((s) => s.channel)).toEqual(['outbox']);

    let closed = false;
    const closing = notifier.close().then(() => (closed = true));
    await settled();
    expect(closed).toBe(false);
    sends[0]!.finish();
    await closing;
    notifier.afterCommitOf(em, new Set(['outbox']));
    await new Promise((r) => setTimeout(r, 50));
    expect(sends).toHaveLength(1);
  });

  it('is quieted by the ORM before its connections close', async () => {
    const orm = await MikroORM.init({ ...ormOptions(schema, 'postgres://postwire@127.0.0.1:1/none'), connect: false });
    const [notifier] = [...orm.em.getEventManager().getSubscribers()].filter((s): s is CommitNotifier => s instanceof CommitNotifier);
    const order: string[] = [];
    const quiet = jest.spyOn(notifier!, 'close').mockImplementation(async () => void order.push('notifier'));
    const client = orm.em.getConnection().getKnex().client as { destroy: () => Promise<void> };
    const destroy = client.destroy.bind(client);
    jest.spyOn(client, 'destroy').mockImplementation(async () => {
      order.push('pool');
      await destroy();
    });
    await orm.close();
    expect(quiet).toHaveBeenCalledTimes(1);
    expect(order).toEqual(['notifier', 'pool']);
  });
});
