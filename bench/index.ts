/** `npm run bench -- <name>` runs bench/<name>.ts. */
import { readdirSync } from 'node:fs';
import path from 'node:path';

const available = readdirSync(__dirname)
  .filter((file) => file.endsWith('.ts') && file !== 'index.ts')
  .map((file) => file.slice(0, -'.ts'.length));
const name = process.argv[2];

if (!name || !available.includes(name)) {
  console.error(`usage: npm run bench -- <name>\navailable: ${available.join(', ')}`);
  process.exit(2);
}
void import(path.join(__dirname, `${name}.ts`));
