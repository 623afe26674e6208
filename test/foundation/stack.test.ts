import type { Deps } from '../../src/deps';
import { startStack } from '../helpers/stack';

describe('startStack', () => {
  it('stops what it had started when a part fails to start, and throws that failure', async () => {
    let deps: Deps | undefined;
    const failure = new Error('the worker did not start');
    const worker = async (started: Deps) => {
      deps = started;
      throw failure;
    };
    await expect(startStack({ worker, pump: true })).rejects.toBe(failure);
    expect(await deps?.orm.isConnected()).toBe(false);
  });
});
