// Tests run against real servers on a shared 2-core machine; a test that fails twice more is reported.
jest.retryTimes(2, { logErrorsBeforeRetry: true });
