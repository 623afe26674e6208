import os from 'node:os';
import type { AddressInfo } from 'node:net';
import { RateLimiter } from '../../src/http/rate-limit';
import { relaySmtpServer } from '../../src/modules/relay/server';
import { plain, smtpDialog } from '../helpers/smtp-dialog';
import { startStack, type TestStack } from '../helpers/stack';
import { senderTenant } from '../helpers/tenants';

/** An address of this machine that is not loopback: a client there is "elsewhere" to the relay. */
const outside = Object.values(os.networkInterfaces())
  .flat()
  .find((i) => i && !i.internal && i.family === 'IPv4')?.address;

let stack: TestStack;
beforeAll(async () => {
  stack = await startStack();
}, 60_000);
afterAll(() => stack.close());

/** The relay listening on every interface, with `insecure` as RELAY_ALLOW_INSECURE_AUTH. */
async function relayOnAllInterfaces(insecure: boolean) {
  const deps = { ...stack.deps, config: { ...stack.deps.config, RELAY_ALLOW_INSECURE_AUTH: insecure } };
  const server = relaySmtpServer({ ...deps, limiter: new RateLimiter(deps.orm, deps.config, deps.logger) });
  await new Promise<void>((resolve) => server.listen(0, '0.0.0.0', resolve));
  return { port: (server.server.address() as AddressInfo).port, close: () => new Promise<void>((r) => server.close(() => r())) };
}

(outside ? describe : describe.skip)('AUTH without TLS from elsewhere than loopback', () => {
  it('is refused with 538 5.7.11, unless RELAY_ALLOW_INSECURE_AUTH', async () => {
    const t = await senderTenant(stack);
    const strict = await relayOnAllInterfaces(false);
    try {
      const answers = await smtpDialog(
        strict.port,
        ['EHLO app.example.test', `AUTH PLAIN ${plain('app', t.project.secret)}`, 'QUIT'],
        60_000,
        outside,
      );
      expect(answers[2]).toMatch(/^538 5\.7\.11 /);
    } finally {
      await strict.close();
    }
    const lax = await relayOnAllInterfaces(true);
    try {
      const answers = await smtpDialog(
        lax.port,
        ['EHLO app.example.test', `AUTH PLAIN ${plain('app', t.project.secret)}`, 'QUIT'],
        60_000,
        outside,
      );
      expect(answers[2]).toMatch(/^235 /);
    } finally {
      await lax.close();
    }
  });
});
