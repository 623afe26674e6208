import { ApiError } from './errors';

/**
 * The shape every JSON body keeps, checked in one pass over its text before it is parsed
 * (docs/architecture.md "The body pipeline"): so that no recursive validator sees a body deep enough to exhaust
 * the stack, and so that parsing and validating a body within the size limit stays bounded work (a refused
 * request costs little). Every route's largest valid body holds far less: 1,000 items per array, 100 keys of
 * `data`, 50 recipients.
 */
export const JSON_LIMITS = {
  /** Levels of objects and arrays. */
  depth: 64,
  /** Members (keys, or elements) of one object or array. */
  members: 10_000,
  /** Values in the whole body, keys included: what JSON.parse allocates. */
  values: 50_000,
} as const;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACE = 0x7d;
const CLOSE_BRACKET = 0x5d;
const COMMA = 0x2c;
const COLON = 0x3a;

/** The index of the quote that closes the string opened before `from`, or -1; indexOf skips the text between. */
function stringEnd(text: string, from: number): number {
  for (let quote = text.indexOf('"', from); quote >= 0; quote = text.indexOf('"', quote + 1)) {
    let backslashes = 0;
    while (text.charCodeAt(quote - 1 - backslashes) === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) return quote;
  }
  return -1;
}

const isSpace = (c: number) => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
/** Whatever starts a number, true, false or null (or garbage JSON.parse will refuse). */
const isScalar = (c: number) =>
  !isSpace(c) &&
  c !== QUOTE &&
  c !== OPEN_BRACE &&
  c !== OPEN_BRACKET &&
  c !== CLOSE_BRACE &&
  c !== CLOSE_BRACKET &&
  c !== COMMA &&
  c !== COLON;

/**
 * Where each open container sits, to name the one that breaks a limit (`data`, `items.3.tags`): for each depth,
 * whether it is an object, its members so far, its last string (an object's key before a nested container)
 * and its own name in its parent.
 */
class OpenContainers {
  readonly object: boolean[] = [];
  readonly members: number[] = [];
  readonly lastString: Array<[number, number]> = [];
  readonly name: Array<[number, number] | number | null> = [];

  open(depth: number, object: boolean): void {
    const parent = depth - 1;
    this.name[depth] = parent < 1 ? null : this.object[parent] ? (this.lastString[parent] ?? null) : this.members[parent]! - 1;
    this.object[depth] = object;
    this.members[depth] = 0;
  }

  /** `data.list` for the container at `depth`, `body` for the body itself. */
  path(text: string, depth: number): string {
    const parts: string[] = [];
    for (let d = 2; d <= depth; d++) {
      const name = this.name[d];
      if (typeof name === 'number') parts.push(String(name));
      else if (name) parts.push(keyText(text, name));
    }
    return parts.join('.') || 'body';
  }
}

function keyText(text: string, [start, end]: [number, number]): string {
  try {
    return String(JSON.parse(text.slice(start, end + 1)));
  } catch {
    return text.slice(start + 1, end);
  }
}

const tooDeep = () =>
  new ApiError(422, 'VALIDATION_ERROR', `JSON bodies nest at most ${JSON_LIMITS.depth} levels`, {
    errors: [{ field: 'body', message: `Nests objects and arrays deeper than ${JSON_LIMITS.depth} levels`, code: 'too_nested' }],
    details: { maxDepth: JSON_LIMITS.depth },
    suggestion: `Flatten the body to at most ${JSON_LIMITS.depth} levels of objects and arrays.`,
  });

const tooManyMembers = (field: string) =>
  new ApiError(422, 'VALIDATION_ERROR', `A JSON object or array holds at most ${JSON_LIMITS.members.toLocaleString('en')} members`, {
    errors: [
      {
        field,
        message: `Holds more than ${JSON_LIMITS.members.toLocaleString('en')} keys or elements`,
        code: 'too_big',
      },
    ],
    details: { maxMembers: JSON_LIMITS.members },
    suggestion: 'Send fewer keys or elements; split the work across requests.',
  });

const tooManyValues = () =>
  new ApiError(422, 'VALIDATION_ERROR', `A JSON body holds at most ${JSON_LIMITS.values.toLocaleString('en')} values`, {
    errors: [{ field: 'body', message: `Holds more than ${JSON_LIMITS.values.toLocaleString('en')} values and keys`, code: 'too_big' }],
    details: { maxValues: JSON_LIMITS.values },
    suggestion: 'Send fewer values; split the work across requests.',
  });

/**
 * A 422 when JSON text breaks JSON_LIMITS: one pass, strings skipped with indexOf, no recursion, stopping at
 * the first breach. Malformed text is left to JSON.parse.
 */
export function assertJsonShape(text: string): void {
  const open = new OpenContainers();
  let depth = 0;
  let values = 0;
  let inScalar = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (isScalar(c)) {
      if (!inScalar && ++values > JSON_LIMITS.values) throw tooManyValues();
      if (!inScalar && depth > 0 && open.members[depth] === 0) open.members[depth] = 1;
      inScalar = true;
      continue;
    }
    inScalar = false;
    if (c === QUOTE) {
      const end = stringEnd(text, i + 1);
      if (end < 0) return;
      if (++values > JSON_LIMITS.values) throw tooManyValues();
      if (depth > 0) {
        if (open.members[depth] === 0) open.members[depth] = 1;
        open.lastString[depth] = [i, end];
      }
      i = end;
    } else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      if (++values > JSON_LIMITS.values) throw tooManyValues();
      if (depth > 0 && open.members[depth] === 0) open.members[depth] = 1;
      if (++depth > JSON_LIMITS.depth) throw tooDeep();
      open.open(depth, c === OPEN_BRACE);
    } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
      depth--;
    } else if (c === COMMA && depth > 0) {
      if (++open.members[depth]! > JSON_LIMITS.members) throw tooManyMembers(open.path(text, depth));
    }
  }
}
