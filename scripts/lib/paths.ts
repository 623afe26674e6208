import path from 'node:path';

export const root = path.resolve(__dirname, '..', '..');
export const dataDir = path.join(root, '.data');
export const toolsBin = path.join(root, '.tools', 'venv', 'bin');
export const temporalCli = path.join(toolsBin, 'temporal');
export const temporalTestServer = path.join(toolsBin, 'temporal-test-server');
export const tsx = path.join(root, 'node_modules', '.bin', 'tsx');
