import { createDeps, closeDeps, runMain } from '../bootstrap';
import { createApp } from '../app/app';
import { pruneEndedSessions } from '../auth/ended-sessions';
import { startSmtpListeners } from '../app/smtp-listeners';
import { warmSimulatorWhenReady } from '../app/simulator';
import { onStopSignals } from './stop-signals';

runMain(async () => {
  const deps = await createDeps('api');
  const { koa, limiter } = createApp(deps);
  const server = koa.listen(deps.config.PORT, deps.config.HOST, () => deps.logger.info({ port: deps.config.PORT }, 'API listening'));
  server.keepAliveTimeout = 65_000;
  const smtp = await startSmtpListeners(deps, { inbound: deps.config.INBOUND_SMTP_PORT, relay: deps.config.RELAY_SMTP_PORT });
  if (smtp.inboundPort !== null) deps.logger.info({ port: smtp.inboundPort }, 'inbound SMTP listening');
  if (smtp.relayPort !== null) deps.logger.info({ port: smtp.relayPort }, 'SMTP relay listening');
  warmSimulatorWhenReady(deps, server);
  const prune = setInterval(() => {
    void limiter.prune();
    void pruneEndedSessions(deps.orm.em.fork(), deps.logger);
  }, 60_000);
  const stop = () => {
    clearInterval(prune);
    server.close(() => void smtp.close().then(() => closeDeps(deps).then(() => process.exit(0))));
  };
  onStopSignals(stop);
});
