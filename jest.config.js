/**
 * Three projects, each runnable alone (`--selectProjects unit`, `stack` or `cluster`):
 * - unit: `*.unit.test.ts`, code that needs neither PostgreSQL nor Temporal's servers (pure rules, rendering,
 *   MIME and DKIM, the SMTP client against a sink, workflows with stub activities in the time-skipping
 *   environment, replays); no global setup, so it runs in seconds with nothing started;
 * - stack: every other test, against the real stack that scripts/test.ts brings up (PostgreSQL, Temporal,
 *   SMTP, DNS); its global setup migrates the template database each jest worker clones;
 * - cluster: `*.cluster.test.ts`, the production shape (docs/cluster.md): each file starts a cluster of its own
 *   (PostgreSQL, the Temporal server built from source, API and worker processes); scripts/test.ts runs them after
 *   the stack tests, one file at a time.
 */
const transform = {
  '^.+\\.ts$': ['@swc/jest', { jsc: { target: 'es2023', parser: { syntax: 'typescript' } } }],
};

module.exports = {
  testTimeout: 60000,
  maxWorkers: 2,
  // A worker's heap grows file after file (the 40 MB sends, native Temporal runtimes); near V8's limit it spends
  // its time collecting, and a test of 2 s took over a minute. A worker past this is replaced between files.
  workerIdleMemoryLimit: '1500MB',
  projects: [
    {
      displayName: 'unit',
      testEnvironment: 'node',
      roots: ['<rootDir>/test'],
      testMatch: ['**/*.unit.test.ts'],
      transform,
    },
    {
      displayName: 'stack',
      testEnvironment: 'node',
      roots: ['<rootDir>/test'],
      testMatch: ['**/*.test.ts'],
      testPathIgnorePatterns: ['\\.unit\\.test\\.ts$', '\\.cluster\\.test\\.ts$'],
      transform,
      globalSetup: '<rootDir>/test/setup/global-setup.ts',
      globalTeardown: '<rootDir>/test/setup/global-teardown.ts',
    },
    {
      displayName: 'cluster',
      testEnvironment: 'node',
      roots: ['<rootDir>/test'],
      testMatch: ['**/*.cluster.test.ts'],
      transform,
      // scripts/ import some modules lazily by their emitted name (`await import('….js')`), as Node resolves them.
      moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
    },
  ],
};
