import type { Operation } from '../catalog';

/** A command of the CLI: `postwire <words…>` runs `op` (docs/cli.md). */
export interface Command {
  words: string[];
  op: Operation;
  /** Flags named otherwise than the input's properties: `--html` for `body`. */
  aliases: Record<string, string>;
}

/** Commands of their own beside `<group> <action>`: the everyday ones, with friendlier flags. */
const SHORTCUTS = [{ words: ['send'], tool: 'emails_send', aliases: { html: 'body' } }];

/** A word that may stand for another in any command: `show` for `get`. */
const SYNONYMS: Record<string, string> = { show: 'get' };

export function commandsOf(operations: readonly Operation[]): Command[] {
  const generated = operations.map((op) => ({ words: [op.group, ...op.action], op, aliases: {} }));
  const shortcuts = SHORTCUTS.flatMap(({ words, tool, aliases }) => {
    const op = operations.find((o) => o.name === tool);
    return op ? [{ words, op, aliases }] : [];
  });
  return [...shortcuts, ...generated];
}

/** The ways a command may be typed: its words, or its action's words joined by hyphens (`executions-get`). */
const spellings = (words: string[]): string[][] => (words.length > 2 ? [words, [words[0]!, words.slice(1).join('-')]] : [words]);

/**
 * The command that the leading words name, the most specific first (`executions history` before `executions`);
 * the words left over are its positional arguments.
 */
export function findCommand(commands: readonly Command[], typed: string[]): { command: Command; rest: string[] } | undefined {
  const words = typed.map((w) => SYNONYMS[w] ?? w);
  let best: { command: Command; rest: string[]; weight: number } | undefined;
  for (const command of commands) {
    for (const spelling of spellings(command.words)) {
      const matches = spelling.every((w, i) => words[i] === w);
      if (matches && (!best || command.words.length > best.weight)) {
        best = { command, rest: typed.slice(spelling.length), weight: command.words.length };
      }
    }
  }
  return best && { command: best.command, rest: best.rest };
}
