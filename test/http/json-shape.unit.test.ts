import { ApiError } from '../../src/http/errors';
import { JSON_LIMITS, assertJsonShape } from '../../src/http/json-shape';

/** The one-pass shape check of JSON bodies (src/http/json-shape.ts); through HTTP in edges.test.ts and refused-input.test.ts. */

function refusal(text: string): ApiError {
  try {
    assertJsonShape(text);
  } catch (err) {
    if (err instanceof ApiError) return err;
    throw err;
  }
  throw new Error('the shape was accepted');
}

const members = (n: number) => Array.from({ length: n }, (_, i) => i).join(',');
const keys = (n: number) => Array.from({ length: n }, (_, i) => `"k${i}":1`).join(',');

describe('assertJsonShape', () => {
  it('takes an object or array of exactly the members limit, and refuses one more, naming where it is', () => {
    expect(() => assertJsonShape(`{"data":{${keys(JSON_LIMITS.members)}}}`)).not.toThrow();
    expect(() => assertJsonShape(`[${members(JSON_LIMITS.members)}]`)).not.toThrow();
    const err = refusal(`{"email":"a@b.test","data":{"profile":{"list":[${members(JSON_LIMITS.members + 1)}]}}}`);
    expect(err.status).toBe(422);
    expect(err.extra.errors).toEqual([expect.objectContaining({ field: 'data.profile.list', code: 'too_big' })]);
    expect(err.extra.details).toEqual({ maxMembers: JSON_LIMITS.members });
    expect(refusal(`{"data":{${keys(JSON_LIMITS.members + 1)}}}`).extra.errors?.[0]?.field).toBe('data');
    expect(refusal(`[${members(JSON_LIMITS.members + 1)}]`).extra.errors?.[0]?.field).toBe('body');
  });

  it('names containers inside arrays by index, and keys as they decode', () => {
    const inner = `{"x":[${members(JSON_LIMITS.members + 1)}]}`;
    expect(refusal(`{"items":[1,{"a":2},${inner}]}`).extra.errors?.[0]?.field).toBe('items.2.x');
    expect(refusal(`{"a\\"b,c":[${members(JSON_LIMITS.members + 1)}]}`).extra.errors?.[0]?.field).toBe('a"b,c');
  });

  it('counts every value and key of the body against the values limit', () => {
    // Objects of 2 keys: 1 for the array, 3 per object (itself and two keys), 2 values each.
    const objects = (n: number) => `[${Array.from({ length: n }, () => '{"a":1,"b":"x"}').join(',')}]`;
    const fits = Math.floor((JSON_LIMITS.values - 1) / 5);
    expect(() => assertJsonShape(objects(fits))).not.toThrow();
    const err = refusal(`{"x":${objects(fits)},"y":${objects(fits)}}`);
    expect(err.extra.errors).toEqual([expect.objectContaining({ field: 'body', code: 'too_big' })]);
    expect(err.extra.details).toEqual({ maxValues: JSON_LIMITS.values });
  });

  it('reads brackets, commas and quotes inside strings as text', () => {
    const text = JSON.stringify({ k: ',[{"\\'.repeat(JSON_LIMITS.members + 5), list: [','.repeat(50_000)] });
    expect(() => assertJsonShape(text)).not.toThrow();
  });

  it('refuses nesting deeper than the depth limit', () => {
    const nested = (d: number) => '['.repeat(d) + ']'.repeat(d);
    expect(() => assertJsonShape(nested(JSON_LIMITS.depth))).not.toThrow();
    expect(refusal(nested(JSON_LIMITS.depth + 1)).extra.errors?.[0]?.code).toBe('too_nested');
  });
});
