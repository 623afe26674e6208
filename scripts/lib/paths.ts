import path from 'node:path';

export const root = path.resolve(__dirname, '..', '..');
/** The setting that moves `dataDir`; .env.example lists it with the port settings. */
export const DATA_DIR_SETTING = 'POSTWIRE_DATA_DIR';
/**
 * Where `npm start` keeps its state (PostgreSQL, Temporal, mail capture, secrets, the development account,
 * logs): `.data` in the repository, or POSTWIRE_DATA_DIR, so that a second `npm start` (a test, a benchmark) can
 * run beside the first on ports of its own.
 */
export const dataDir = process.env[DATA_DIR_SETTING] ? path.resolve(process.env[DATA_DIR_SETTING]) : path.join(root, '.data');
/** A path as printed: relative to the repository when inside it. */
export const shownPath = (full: string): string => {
  const relative = path.relative(root, full);
  return relative.startsWith('..') || path.isAbsolute(relative) ? full : relative;
};
/** A path under `dataDir` as printed. */
export const shownDataDir = (...parts: string[]): string => shownPath(path.join(dataDir, ...parts));
export const toolsBin = path.join(root, '.tools', 'venv', 'bin');
export const temporalCli = path.join(toolsBin, 'temporal');
export const temporalTestServer = path.join(toolsBin, 'temporal-test-server');
export const tsx = path.join(root, 'node_modules', '.bin', 'tsx');
