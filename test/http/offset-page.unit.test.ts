import { offsetOf, offsetPage, pageOf } from '../../src/http/offset-page';
import { z } from 'zod';

describe('the offset page envelope', () => {
  it('counts the pages of a total, a last page partly filled and an empty list as none', () => {
    expect(pageOf(['a', 'b'], 42, { page: 3, pageSize: 20 })).toEqual({
      data: ['a', 'b'],
      total: 42,
      page: 3,
      pageSize: 20,
      totalPages: 3,
    });
    expect(pageOf([], 40, { page: 2, pageSize: 20 }).totalPages).toBe(2);
    expect(pageOf([], 0, { page: 1, pageSize: 20 }).totalPages).toBe(0);
  });

  it('skips the rows of the pages before', () => {
    expect([1, 2, 5].map((page) => offsetOf({ page, pageSize: 25 }))).toEqual([0, 25, 100]);
  });

  it('describes what pageOf answers, and nothing more', () => {
    const schema = offsetPage(z.object({ id: z.string() })).strict();
    expect(schema.safeParse(pageOf([{ id: 'x' }], 1, { page: 1, pageSize: 20 })).success).toBe(true);
    expect(schema.safeParse({ ...pageOf([], 0, { page: 1, pageSize: 20 }), extra: 1 }).success).toBe(false);
  });
});
