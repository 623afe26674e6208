/** Integers in [0, n) from a seeded generator, so that a failing draw names a case that can be run again. */
export function seededRandom(seed: number): (n: number) => number {
  let state = seed;
  return (n) => {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    return Math.floor((state / 2 ** 31) * n);
  };
}

/** Text of fewer than `most` pieces, each drawn from `pieces`. */
export const randomText = (next: (n: number) => number, pieces: readonly string[], most: number): string =>
  Array.from({ length: next(most) }, () => pieces[next(pieces.length)]).join('');
