/**
 * Two projects, each runnable alone (`--selectProjects unit` or `stack`):
 * - unit: `*.unit.test.ts`, code that needs neither PostgreSQL nor Temporal's servers (pure rules, rendering,
 *   MIME and DKIM, the SMTP client against a sink, workflows with stub activities in the time-skipping
 *   environment, replays); no global setup, so it runs in seconds with nothing started;
 * - stack: every other test, against the real stack that scripts/test.ts brings up (PostgreSQL, Temporal,
 *   SMTP, DNS); its global setup migrates the template database each jest worker clones.
 */
const transform = {
  '^.+\\.ts$': ['@swc/jest', { jsc: { target: 'es2023', parser: { syntax: 'typescript' } } }],
};

module.exports = {
  testTimeout: 60000,
  maxWorkers: 2,
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
      testPathIgnorePatterns: ['\\.unit\\.test\\.ts$'],
      transform,
      globalSetup: '<rootDir>/test/setup/global-setup.ts',
      globalTeardown: '<rootDir>/test/setup/global-teardown.ts',
    },
  ],
};
