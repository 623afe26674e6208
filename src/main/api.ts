import { createDeps, closeDeps, runMain } from '../bootstrap';
import { createApp } from '../app/app';
import { pruneEndedSessions } from '../auth/ended-sessions';

runMain(async () => {
  const deps = await createDeps('api');
  const { koa, limiter } = createApp(deps);
  const server = koa.listen(deps.config.PORT, deps.config.HOST, () => deps.logger.info({ port: deps.config.PORT }, 'API listening'));
  server.keepAliveTimeout = 65_000;
  const prune = setInterval(() => {
    void limiter.prune();
    void pruneEndedSessions(deps.orm.em.fork(), deps.logger);
  }, 60_000);
  const stop = () => {
    clearInterval(prune);
    server.close(() => void closeDeps(deps).then(() => process.exit(0)));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
});
