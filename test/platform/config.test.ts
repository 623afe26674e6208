import { startStack, type TestStack } from '../helpers/stack';
import { uniqueEmail } from '../helpers/fixtures';
import pkg from '../../package.json';

const flags = async (stack: TestStack) => (await stack.http().get('/config').expect(200).expect('Content-Type', /json/)).body;

describe('GET /config', () => {
  it('answers without authentication with its feature flags', async () => {
    const stack = await startStack();
    try {
      expect(await flags(stack)).toEqual({
        signupsEnabled: true,
        billingEnabled: false,
        oauthProviders: [],
        trackingEnabled: true,
        version: pkg.version,
        temporalUi: null,
        // Outside a development sandbox (SANDBOX_ENABLED), no development aids.
        development: null,
      });
    } finally {
      await stack.close();
    }
  });

  it('gives the Temporal Web UI and namespace with TEMPORAL_UI_URL', async () => {
    const stack = await startStack({ env: { TEMPORAL_UI_URL: 'http://temporal.example.test:8080/', TEMPORAL_NAMESPACE: 'mail' } });
    try {
      expect((await flags(stack)).temporalUi).toEqual({ url: 'http://temporal.example.test:8080', namespace: 'mail' });
    } finally {
      await stack.close();
    }
  });

  it('reports signups off with DISABLE_SIGNUPS=true, and signup is then refused', async () => {
    const stack = await startStack({ env: { DISABLE_SIGNUPS: 'true' } });
    try {
      expect(await flags(stack)).toMatchObject({ signupsEnabled: false });
      const res = await stack.http().post('/auth/signup').send({ email: uniqueEmail(), password: 'correct horse battery' });
      expect(res.status).toBe(403);
      expect(res.body.error).toMatchObject({ code: 'SIGNUPS_DISABLED', statusCode: 403 });
    } finally {
      await stack.close();
    }
  });
});
