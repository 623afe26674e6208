import { randomBytes } from 'node:crypto';
import { loadConfig } from '../config';
import type { Deps } from '../deps';
import type { RouteDef } from '../http/route';
import { allRoutes } from './routes';

/** A dependency that routes may hold while they are declared, and that only a handler would use. */
const unused = (name: string): unknown =>
  new Proxy(
    {},
    {
      get: () => {
        throw new Error(`a route declared outside the API used deps.${name}`);
      },
    },
  );

/**
 * The route list as declared under the default settings, without a database or Temporal: what /openapi.json,
 * docs/cli.md, the CLI and the stdio MCP server are generated from. No handler may run on it.
 */
export function declaredRoutes(): RouteDef[] {
  // Only the settings the declarations depend on matter, at their defaults; the required ones get throwaway values.
  const config = loadConfig({
    DATABASE_URL: 'postgres://localhost/postwire',
    JWT_SECRET: randomBytes(32).toString('hex'),
    ENCRYPTION_KEY: randomBytes(32).toString('hex'),
  });
  const deps = {
    config,
    ...Object.fromEntries(['logger', 'orm', 'temporal', 'mailer', 'dns', 'sessions'].map((k) => [k, unused(k)])),
  } as Deps;
  return allRoutes(deps);
}
