import type { Operation } from '../catalog';
import { ConfigError, clientConfig } from '../client-config';
import { InputError, Unreachable, answerOf, failureOf, requestOf, type Dispatch } from '../request';
import { UsageError, argumentsOf, tokenize } from './args';
import { commandsOf, findCommand } from './commands';
import { commandHelp, groupHelp, mainHelp } from './help';
import { readable, readableFailure } from './output';

/** What the CLI touches of the world, so that tests can run it in-process. */
export interface CliIo {
  env: NodeJS.ProcessEnv;
  out: (text: string) => void;
  err: (text: string) => void;
  /** How requests reach the API at a base URL: `remoteDispatch`, or the app in-process in a test. */
  dispatch: (baseUrl: string) => Dispatch;
  readStdin: () => Buffer;
  version: string;
}

/** The exit codes of docs/cli.md "Exit codes". */
export const EXIT = { ok: 0, refused: 1, usage: 2, failed: 3, unreachable: 4 } as const;

/** Runs one command line; returns its exit code. */
export async function runCli(argv: string[], operations: readonly Operation[], io: CliIo): Promise<number> {
  const commands = commandsOf(operations);
  try {
    const tokens = tokenize(argv);
    if (tokens.globals.version) {
      io.out(io.version);
      return EXIT.ok;
    }
    if (tokens.words.length === 0) {
      (tokens.globals.help ? io.out : io.err)(mainHelp(commands));
      return tokens.globals.help ? EXIT.ok : EXIT.usage;
    }
    const found = findCommand(commands, tokens.words);
    if (!found) {
      const group = tokens.words[0]!;
      if (!commands.some((c) => c.words[0] === group)) throw new UsageError(`unknown command ${group}; postwire --help lists the groups`);
      if (tokens.globals.help && tokens.words.length === 1) {
        io.out(groupHelp(commands, group));
        return EXIT.ok;
      }
      io.err(`${tokens.words.length > 1 ? `Unknown command: postwire ${tokens.words.join(' ')}\n\n` : ''}${groupHelp(commands, group)}`);
      return EXIT.usage;
    }
    const { command, rest } = found;
    if (tokens.globals.help) {
      io.out(commandHelp(command));
      return EXIT.ok;
    }
    const config = clientConfig(io.env, tokens.globals);
    if (!config.key)
      throw new UsageError(
        "no API key: set POSTWIRE_API_KEY to the project's secret key (sk_…), or apiKey in ~/.config/postwire/config.json",
      );
    const args = argumentsOf(command, rest, tokens, io.readStdin);
    const request = await requestOf(command.op, args, config.url, { authorization: `Bearer ${config.key}` });
    const answer = await answerOf(await io.dispatch(config.url)(request));
    if (answer.ok) {
      io.out(tokens.globals.json ? JSON.stringify(answer.body, null, 2) : readable(answer.body, answer.status));
      return EXIT.ok;
    }
    if (tokens.globals.json) io.out(JSON.stringify(answer.body, null, 2));
    else io.err(readableFailure(failureOf(answer)));
    return answer.status >= 500 ? EXIT.failed : EXIT.refused;
  } catch (err) {
    if (err instanceof InputError) {
      io.err(readableFailure(err.failure));
      return EXIT.usage;
    }
    if (err instanceof Unreachable) {
      io.err(`Error: ${err.message}. Is it running? POSTWIRE_URL or --url names another.`);
      return EXIT.unreachable;
    }
    if (err instanceof UsageError || err instanceof ConfigError) {
      io.err(`Error: ${err.message}`);
      return EXIT.usage;
    }
    throw err;
  }
}
