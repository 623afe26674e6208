import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import type { z } from 'zod';
import { ConfigError, configSchema, loadConfig } from '../../src/config';
import { portDefaults } from '../../scripts/lib/ports';
import { DATA_DIR_SETTING } from '../../scripts/lib/paths';

const root = path.resolve(__dirname, '..', '..');
const required = {
  DATABASE_URL: 'postgres://postwire:pw@127.0.0.1:5432/postwire',
  JWT_SECRET: 's'.repeat(32),
  ENCRYPTION_KEY: 'ab'.repeat(32),
};

function refusal(env: Record<string, string>): ConfigError {
  try {
    loadConfig(env);
  } catch (err) {
    if (err instanceof ConfigError) return err;
    throw err;
  }
  throw new Error('loadConfig accepted the settings');
}

describe('loadConfig', () => {
  it('needs only the three required settings and fills in the documented defaults', () => {
    expect(loadConfig(required)).toMatchObject({
      NODE_ENV: 'development',
      PORT: 3000,
      DATABASE_POOL_SIZE: 20,
      DNS_SERVERS: [],
      TRUSTED_PROXIES: [],
      DISABLE_SIGNUPS: false,
      API_RATE_LIMIT_PER_MINUTE: 1000,
      RATE_LIMIT_ENABLED: false,
      RATE_LIMIT_TRACK_PER_SECOND: 100,
      RATE_LIMIT_TRACK_BURST: 200,
      RATE_LIMIT_SEND_PER_SECOND: 20,
      RATE_LIMIT_SEND_BURST: 50,
      RATE_LIMIT_CONTACTS_PER_SECOND: 50,
      RATE_LIMIT_CONTACTS_BURST: 100,
    });
  });

  it.each([
    ['PORT', 'abc'],
    ['PORT', '0'],
    ['PORT', '70000'],
    ['PORT', '3000.5'],
    ['DATABASE_URL', 'mysql://db/postwire'],
    ['ENCRYPTION_KEY', 'not hex at all'],
    ['ENCRYPTION_KEY', 'ab'.repeat(16)],
    ['JWT_SECRET', 'too short'],
    ['RATE_LIMIT_ENABLED', 'maybe'],
    ['API_RATE_LIMIT_PER_MINUTE', '-1'],
    ['RATE_LIMIT_SEND_PER_SECOND', '-0.5'],
    ['RATE_LIMIT_TRACK_PER_SECOND', 'fast'],
    ['LOG_LEVEL', 'loud'],
    ['SMTP_URL', 'http://mail.example'],
    ['TRUSTED_PROXIES', '10.0.0.1, proxy.internal'],
    ['TRUSTED_PROXIES', '10.0.0.0/33'],
    ['TRUSTED_PROXIES', 'fd00::/129'],
  ])('refuses %s=%p with a message naming it', (name, value) => {
    const { message } = refusal({ ...required, [name]: value });
    expect(message).toMatch(new RegExp(`^  ${name}: \\S`, 'm'));
    expect(message.split('\n')).toHaveLength(2);
  });

  it.each(Object.keys(required))('refuses a missing %s, saying it is required', (name) => {
    const env: Record<string, string> = { ...required };
    delete env[name];
    expect(refusal(env).message).toContain(`  ${name}: required, not set`);
  });

  it('names every bad setting at once and never echoes a value, since some are secrets', () => {
    const secret = 'zz'.repeat(32);
    const { message } = refusal({ DATABASE_URL: 'nope', JWT_SECRET: 'hunter2', ENCRYPTION_KEY: secret, PORT: 'x' });
    for (const name of ['DATABASE_URL', 'JWT_SECRET', 'ENCRYPTION_KEY', 'PORT']) expect(message).toMatch(new RegExp(`^  ${name}: `, 'm'));
    expect(message).not.toContain('hunter2');
    expect(message).not.toContain(secret);
  });

  it('takes a fraction as a token bucket refill rate', () => {
    expect(loadConfig({ ...required, RATE_LIMIT_CONTACTS_PER_SECOND: '0.2' })).toMatchObject({ RATE_LIMIT_CONTACTS_PER_SECOND: 0.2 });
  });

  it('treats an empty value as unset', () => {
    expect(loadConfig({ ...required, PORT: '', LOG_LEVEL: '' })).toMatchObject({ PORT: 3000, LOG_LEVEL: 'info' });
    expect(refusal({ ...required, JWT_SECRET: '' }).message).toContain('  JWT_SECRET: required, not set');
  });
});

describe('start-up with a bad setting', () => {
  it('stops the API process with the message naming it, not a stack trace', async () => {
    const tsx = path.join(root, 'node_modules', '.bin', 'tsx');
    const run = promisify(execFile)(tsx, ['src/main/api.ts'], {
      cwd: root,
      env: { PATH: process.env.PATH, ...required, PORT: 'abc' },
      // A limit against a hang, not a speed: compiling the API's imports takes over 30 s on a loaded machine.
      timeout: 150_000,
    });
    const failure = await run.then(
      () => null,
      (err: { code?: number; stderr?: string }) => err,
    );
    expect(failure?.code).toBe(1);
    expect(failure?.stderr).toContain('Invalid settings:\n  PORT: ');
    expect(failure?.stderr).not.toMatch(/^\s+at /m);
  }, 180_000);
});

describe('SANDBOX_ENABLED (docs/sandbox.md)', () => {
  it('is off unless asked for, and cannot be on with production settings', () => {
    expect(loadConfig(required).SANDBOX_ENABLED).toBe(false);
    expect(loadConfig({ ...required, NODE_ENV: 'production' }).SANDBOX_ENABLED).toBe(false);
    expect(loadConfig({ ...required, SANDBOX_ENABLED: 'true' }).SANDBOX_ENABLED).toBe(true);
    expect(refusal({ ...required, NODE_ENV: 'production', SANDBOX_ENABLED: 'true' }).message).toContain('SANDBOX_ENABLED: ');
  });
});

describe('.env.example', () => {
  const lines = readFileSync(path.join(root, '.env.example'), 'utf8').split('\n');
  const listed = lines.flatMap((line, i) => {
    const match = /^# ([A-Z][A-Z0-9_]*)=(.*)$/.exec(line);
    return match ? [{ name: match[1]!, value: match[2]!, comment: lines[i - 1] ?? '' }] : [];
  });
  const schemas = configSchema.shape as Record<string, z.ZodType>;
  const ports: Record<string, number> = portDefaults;

  it('lists every setting of src/config.ts and scripts/lib/ports.ts (and the data folder) once, and nothing else', () => {
    const expected = [...new Set([...Object.keys(schemas), ...Object.keys(ports), DATA_DIR_SETTING])].sort();
    expect(listed.map((s) => s.name).sort()).toEqual(expected);
  });

  it('shows each setting with its default under a one-line comment', () => {
    for (const { name, value, comment } of listed) {
      expect([name, comment]).toEqual([name, expect.stringMatching(/^# (?![A-Z][A-Z0-9_]*=)\S/)]);
      const schema = schemas[name];
      const fallback = schema?.safeParse(undefined);
      if (schema && fallback?.success) expect([name, schema.parse(value)]).toEqual([name, fallback.data]);
      else if (schema && value !== '') expect([name, schema.safeParse(value).success]).toEqual([name, true]);
      if (name in ports) expect([name, Number(value)]).toEqual([name, ports[name]]);
    }
  });
});
