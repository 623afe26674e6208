import { writeFileSync } from 'node:fs';
import { loadConfig } from '../src/config';
import { allRoutes } from '../src/http/routes';
import { buildOpenApi } from '../src/modules/openapi/document';
const config = loadConfig({ NODE_ENV: 'test', DATABASE_URL: 'postgres://x@localhost/x', JWT_SECRET: 'x'.repeat(64), ENCRYPTION_KEY: 'a'.repeat(64), TEMPORAL_ADDRESS: 'localhost:1', SMTP_URL: 'smtp://localhost:1', PUBLIC_URL: 'http://localhost' });
const deps = { config } as never;
writeFileSync('/tmp/openapi.json', JSON.stringify(buildOpenApi(allRoutes(deps)), null, 1));
