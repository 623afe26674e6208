import type { JsonSchema } from '../../openapi/schemas';
import { IDEMPOTENCY_ARG } from '../catalog';
import type { Command } from './commands';

const kebab = (name: string) => name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

function typeOf(schema: JsonSchema, file: boolean): string {
  if (file) return 'path';
  if (Array.isArray(schema.enum)) return (schema.enum as unknown[]).join('|');
  const types = schema.type
    ? [schema.type as string].flat()
    : ((schema.anyOf ?? schema.oneOf ?? []) as JsonSchema[]).map((s) => (s.type as string) ?? 'json');
  const shown = [...new Set(types.map((t) => (t === 'object' || t === 'array' ? 'json' : t === 'integer' ? 'number' : t)))];
  return shown.join('|') || 'json';
}

interface Flag {
  flag: string;
  type: string;
  required: boolean;
  description: string;
}

/** The flags of a command: the input's properties but the path parameters, as their aliases where they have one. */
function flagsOf(command: Command): Flag[] {
  const { op } = command;
  const properties = (op.inputSchema.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((op.inputSchema.required ?? []) as string[]);
  const alias = new Map(Object.entries(command.aliases).map(([flag, property]) => [property, flag]));
  return Object.entries(properties)
    .filter(([name]) => !op.pathParams.includes(name))
    .map(([name, schema]) => ({
      flag: `--${alias.get(name) ?? kebab(name)}`,
      type: typeOf(schema, op.files?.includes(name) ?? false),
      required: required.has(name),
      description:
        name === IDEMPOTENCY_ARG
          ? 'Sent as Idempotency-Key: the request is performed once per key'
          : ((schema.description as string) ?? '').split('\n')[0]!,
    }));
}

export const usageOf = (command: Command) =>
  ['postwire', ...command.words, ...command.op.pathParams.map((p) => `<${p}>`), flagsOf(command).length ? '[flags]' : '']
    .filter(Boolean)
    .join(' ');

export function commandHelp(command: Command): string {
  const { op } = command;
  const lines = [`Usage: ${usageOf(command)}`, '', op.summary, '', `${op.method.toUpperCase()} ${op.path}`];
  const flags = flagsOf(command);
  if (flags.length) {
    lines.push('', 'Flags:');
    const width = Math.max(...flags.map((f) => `${f.flag} <${f.type}>`.length));
    for (const f of flags) lines.push(`  ${`${f.flag} <${f.type}>`.padEnd(width)}  ${f.required ? '(required) ' : ''}${f.description}`);
  }
  if (op.body === 'nested') lines.push('', 'The request body is the JSON of --body (or --body @file.json).');
  lines.push(
    '',
    'Global flags: --json (the API JSON as it is), --url <url>, --config <file>, --input <json|@file> (arguments as one JSON object).',
  );
  return lines.join('\n');
}

const groupsOf = (commands: readonly Command[]) => [...new Set(commands.map((c) => c.words[0]!))];

export function groupHelp(commands: readonly Command[], group: string): string {
  const mine = commands.filter((c) => c.words[0] === group);
  const width = Math.max(...mine.map((c) => usageOf(c).length));
  return [
    `Commands of ${group}:`,
    '',
    ...mine.map((c) => `  ${usageOf(c).padEnd(width)}  ${c.op.summary.split(/[;(]/)[0]!.trim()}`),
    '',
    `postwire ${group} <action> --help: its flags`,
  ].join('\n');
}

export function mainHelp(commands: readonly Command[]): string {
  const groups = groupsOf(commands).filter((g) => commands.some((c) => c.words[0] === g && c.words.length > 1));
  return [
    'Usage: postwire <group> <action> [arguments] [flags]',
    '',
    'The Postwire API from the command line: one command per API operation (docs/cli.md).',
    '',
    'Everyday commands:',
    '  postwire send --from <address> --to <address> --subject <text> --html <html|@file>',
    '  postwire contacts list [--search <text>]',
    '  postwire campaigns send <id>',
    '  postwire executions show <id>',
    '',
    `Groups: ${groups.join(', ')}`,
    'postwire <group> --help lists its commands; postwire <group> <action> --help its flags.',
    '',
    'Configuration: POSTWIRE_API_KEY (the secret key), POSTWIRE_URL (default http://localhost:3000), or',
    '~/.config/postwire/config.json {"url": …, "apiKey": …} (--config <file> for another).',
    'Output: readable by default, --json for the API JSON. Exit codes: 0 done, 1 refused by the API (4xx),',
    '2 a bad command line or configuration, 3 an API failure (5xx), 4 the API could not be reached.',
  ].join('\n');
}

/** docs/cli.md's reference: every command with its flags, generated from the route list (scripts/openapi.ts writes it). */
export function cliReference(commands: readonly Command[]): string {
  const out = [
    '## Commands',
    '',
    '<!-- Generated from the route list by `npm run openapi`; test/agent/cli-docs.unit.test.ts checks it. -->',
    '',
  ];
  for (const group of groupsOf(commands)) {
    out.push(`### ${group}`, '');
    for (const command of commands.filter((c) => c.words[0] === group)) {
      out.push(
        `#### \`${usageOf(command)}\``,
        '',
        `${command.op.summary} (\`${command.op.method.toUpperCase()} ${command.op.path}\`, tool \`${command.op.name}\`)`,
        '',
      );
      const flags = flagsOf(command);
      if (flags.length) {
        out.push('| Flag | Type | |', '|---|---|---|');
        for (const f of flags)
          out.push(
            `| \`${f.flag}\` | ${f.type.replace(/\|/g, '\\|')} | ${f.required ? '**required** ' : ''}${f.description.replace(/\|/g, '\\|')} |`,
          );
        out.push('');
      }
    }
  }
  return out.join('\n');
}
