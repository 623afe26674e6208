import { GroupCommit } from '../../src/db/group-commit';

interface Item {
  id: string;
  key: string;
  weight: number;
  bad?: boolean;
}

/** A group commit over a recording writer: a group with a bad item fails whole, as one statement would. */
function recorder(maxWeight = 3) {
  const groups: string[][] = [];
  let release: () => void = () => undefined;
  const first = new Promise<void>((resolve) => (release = resolve));
  let calls = 0;
  const commit = new GroupCommit<Item, string>({
    write: async (items) => {
      // The first write waits, so that everything written meanwhile queues behind it.
      if (calls++ === 0) await first;
      groups.push(items.map((i) => i.id));
      if (items.some((i) => i.bad)) throw new Error(`bad in ${items.map((i) => i.id).join(',')}`);
      return items.map((i) => `wrote ${i.id}`);
    },
    weight: (item) => item.weight,
    maxWeight,
    key: (item) => item.key,
  });
  return { commit, groups, release };
}

const item = (id: string, extra: Partial<Item> = {}): Item => ({ id, key: id, weight: 1, ...extra });

describe('GroupCommit', () => {
  it('writes a lone item at once, then groups what arrived meanwhile, oldest first, up to the weight', async () => {
    const { commit, groups, release } = recorder(3);
    const results = [commit.write(item('a')), commit.write(item('b')), commit.write(item('c', { weight: 2 })), commit.write(item('d'))];
    release();
    expect(await Promise.all(results)).toEqual(['wrote a', 'wrote b', 'wrote c', 'wrote d']);
    expect(groups).toEqual([['a'], ['b', 'c'], ['d']]);
  });

  it('never puts two items of one key in a group, and keeps their order', async () => {
    const { commit, groups, release } = recorder(10);
    const results = [
      commit.write(item('first')),
      commit.write(item('x1', { key: 'x' })),
      commit.write(item('y')),
      commit.write(item('x2', { key: 'x' })),
      commit.write(item('z')),
    ];
    release();
    await Promise.all(results);
    expect(groups).toEqual([['first'], ['x1', 'y', 'z'], ['x2']]);
  });

  it('writes the items of a failed group again one by one, so that only the bad one fails', async () => {
    const { commit, groups, release } = recorder(10);
    const lone = commit.write(item('lone', { bad: true }));
    const results = [commit.write(item('a')), commit.write(item('bad', { bad: true })), commit.write(item('b'))].map((p) =>
      p.then(
        (value) => ({ value }),
        (err: Error) => ({ error: err.message }),
      ),
    );
    release();
    // Alone in its group, a bad item gets its own failure without a second write.
    await expect(lone).rejects.toThrow('bad in lone');
    expect(await Promise.all(results)).toEqual([{ value: 'wrote a' }, { error: 'bad in bad' }, { value: 'wrote b' }]);
    expect(groups.slice(0, 2)).toEqual([['lone'], ['a', 'bad', 'b']]);
    expect(groups.slice(2).sort((x, y) => x[0]!.localeCompare(y[0]!))).toEqual([['a'], ['b'], ['bad']]);
  });
});
