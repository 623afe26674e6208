import { existsSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';

/** Where the CLI and the stdio MCP server find the API and the key (docs/cli.md "What you can set"). */
export interface ClientConfig {
  url: string;
  key: string | undefined;
  /** The configuration file read, if any. */
  file: string | undefined;
}

const DEFAULT_URL = 'http://localhost:3000';

const ConfigFile = z.object({ url: z.url().optional(), apiKey: z.string().min(1).optional() });

/** A configuration file that cannot be used: the message names it. */
export class ConfigError extends Error {}

function defaultConfigFile(env: NodeJS.ProcessEnv): string {
  const base = env.XDG_CONFIG_HOME || path.join(os.homedir(), '.config');
  return path.join(base, 'postwire', 'config.json');
}

/**
 * The flags first, then the environment (POSTWIRE_URL, POSTWIRE_API_KEY), then the file (`--config`, else
 * POSTWIRE_CONFIG, else ~/.config/postwire/config.json: `{ "url": "…", "apiKey": "sk_…" }`).
 */
export function clientConfig(env: NodeJS.ProcessEnv, flags: { url?: string; config?: string } = {}): ClientConfig {
  const named = flags.config ?? env.POSTWIRE_CONFIG;
  const file = named ?? defaultConfigFile(env);
  let stored: z.infer<typeof ConfigFile> = {};
  if (existsSync(file)) {
    let json: unknown;
    try {
      json = JSON.parse(readFileSync(file, 'utf8'));
    } catch {
      throw new ConfigError(`${file} is not JSON; it should read { "url": "http://…", "apiKey": "sk_…" }`);
    }
    const parsed = ConfigFile.safeParse(json);
    if (!parsed.success)
      throw new ConfigError(`${file}: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
    stored = parsed.data;
  } else if (named) {
    throw new ConfigError(`${file} does not exist`);
  }
  return {
    url: flags.url ?? env.POSTWIRE_URL ?? stored.url ?? DEFAULT_URL,
    key: env.POSTWIRE_API_KEY || stored.apiKey,
    file: existsSync(file) ? file : undefined,
  };
}
