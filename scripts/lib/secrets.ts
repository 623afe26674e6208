import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { dataDir } from './paths';

/**
 * Secrets of a local stack, generated once and kept in `file` (.data/dev-secrets.json for npm start) so sessions
 * and DKIM keys survive restarts.
 */
export function devSecrets(file = path.join(dataDir, 'dev-secrets.json')): { JWT_SECRET: string; ENCRYPTION_KEY: string } {
  if (fs.existsSync(file)) return JSON.parse(fs.readFileSync(file, 'utf8'));
  const secrets = { JWT_SECRET: randomBytes(32).toString('hex'), ENCRYPTION_KEY: randomBytes(32).toString('hex') };
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, JSON.stringify(secrets, null, 2), { mode: 0o600 });
  return secrets;
}
