import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { JsonSchema } from '../../openapi/schemas';
import type { Command } from './commands';

/** A command line the CLI cannot turn into a request: exit code 2, with the message. */
export class UsageError extends Error {}

interface GlobalFlags {
  json: boolean;
  help: boolean;
  version: boolean;
  url?: string;
  config?: string;
  input?: string;
}

const BOOLEAN_GLOBALS = new Set(['json', 'help', 'version']);
const VALUE_GLOBALS = new Set(['url', 'config', 'input']);

export interface Tokens {
  words: string[];
  flags: Array<{ name: string; value: string | undefined }>;
  globals: GlobalFlags;
}

/** Splits argv into words (the command and its positional arguments) and flags; `--name=value`, `--name value`, `-h`. */
export function tokenize(argv: string[]): Tokens {
  const words: string[] = [];
  const flags: Tokens['flags'] = [];
  const globals: GlobalFlags = { json: false, help: false, version: false };
  for (let i = 0; i < argv.length; i++) {
    const token = argv[i]!;
    if (token === '-h') {
      globals.help = true;
      continue;
    }
    if (!token.startsWith('--') || token === '--') {
      words.push(token);
      continue;
    }
    const eq = token.indexOf('=');
    const name = token.slice(2, eq > 0 ? eq : undefined);
    let value = eq > 0 ? token.slice(eq + 1) : undefined;
    if (BOOLEAN_GLOBALS.has(name) && value === undefined) {
      globals[name as 'json' | 'help' | 'version'] = true;
      continue;
    }
    if (value === undefined && i + 1 < argv.length && !argv[i + 1]!.startsWith('--')) value = argv[++i];
    if (VALUE_GLOBALS.has(name)) {
      if (value === undefined) throw new UsageError(`--${name} needs a value`);
      globals[name as 'url' | 'config' | 'input'] = value;
    } else flags.push({ name, value });
  }
  return { words, flags, globals };
}

const key = (name: string) => name.replace(/-/g, '').toLowerCase();
const typesOf = (schema: JsonSchema | undefined): string[] =>
  !schema ? [] : schema.type ? [schema.type as string].flat() : ((schema.anyOf ?? schema.oneOf ?? []) as JsonSchema[]).flatMap(typesOf);

/** `@file` reads the file (curl's convention), when there is one. */
function text(value: string): string {
  if (value.startsWith('@') && existsSync(value.slice(1))) return readFileSync(value.slice(1), 'utf8');
  return value;
}

/** A flag's value as its property's type wants it: numbers, booleans, JSON for objects and arrays, text otherwise. */
function valueOf(raw: string | undefined, schema: JsonSchema | undefined, negated: boolean): unknown {
  const types = typesOf(schema);
  if (raw === undefined) return !negated;
  const value = text(raw);
  if (types.length === 1 && types[0] === 'string') return value;
  if (types.every((t) => t === 'integer' || t === 'number') && types.length && value.trim() !== '' && !Number.isNaN(Number(value)))
    return Number(value);
  if (types.includes('boolean') && (value === 'true' || value === 'false')) return value === 'true';
  try {
    return JSON.parse(value) as unknown;
  } catch {
    return value;
  }
}

/** A file flag's value: the file at the path (`-` for standard input) as a Blob named like it. */
function fileOf(value: string | undefined, readStdin: () => Buffer): Blob {
  if (!value) throw new UsageError('a file flag needs a path (or - for standard input)');
  if (value === '-') return new File([new Uint8Array(readStdin())], 'stdin');
  if (!existsSync(value)) throw new UsageError(`${value}: no such file`);
  return new File([new Uint8Array(readFileSync(value))], path.basename(value));
}

/** The input of a call: `--input` first, then the positional arguments (path parameters in order), then the flags. */
export function argumentsOf(command: Command, rest: string[], tokens: Tokens, readStdin: () => Buffer): Record<string, unknown> {
  const { op } = command;
  const properties = (op.inputSchema.properties ?? {}) as Record<string, JsonSchema>;
  const byKey = new Map(Object.keys(properties).map((name) => [key(name), name]));
  const args: Record<string, unknown> = {};
  if (tokens.globals.input) {
    const input = valueOf(tokens.globals.input, { type: 'object' }, false);
    if (!input || typeof input !== 'object' || Array.isArray(input))
      throw new UsageError('--input takes a JSON object (or @file holding one)');
    Object.assign(args, input);
  }
  if (rest.length > op.pathParams.length) throw new UsageError(`unexpected argument ${rest[op.pathParams.length]}`);
  rest.forEach((value, i) => (args[op.pathParams[i]!] = value));
  for (const { name, value } of tokens.flags) {
    const negated = name.startsWith('no-') && !byKey.has(key(name));
    const bare = negated ? name.slice(3) : name;
    const property = command.aliases[bare] ?? byKey.get(key(bare)) ?? bare;
    const parsed = op.files?.includes(property) ? fileOf(value, readStdin) : valueOf(value, properties[property], negated);
    const known = args[property];
    args[property] = known !== undefined && tokens.flags.filter((f) => f.name === name).length > 1 ? [known, parsed].flat() : parsed;
  }
  return args;
}
