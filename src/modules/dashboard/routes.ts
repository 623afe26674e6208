import fs from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import type { Deps } from '../../deps';
import type { AppContext } from '../../http/context';
import { defineRoute, type RouteDef } from '../../http/route';
import { ApiError } from '../../http/errors';

/** What `vite build` writes: hashed file names of letters, digits, `-`, `_` and one extension. */
const AssetParams = z.object({ file: z.string().regex(/^[\w-]+\.(js|css|svg|woff2)$/) });

const TYPES: Record<string, string> = {
  js: 'text/javascript; charset=utf-8',
  css: 'text/css; charset=utf-8',
  svg: 'image/svg+xml',
  woff2: 'font/woff2',
};

/**
 * The app's own scripts and styles only; it talks to this origin's API and nothing else, and is never framed.
 * Inline styles are allowed because the components set positions and widths with `style`.
 */
const APP_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: https:",
  "connect-src 'self'",
  "font-src 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
].join('; ');

const notBuilt = (dir: string) =>
  `<!doctype html><title>Postwire</title><p>The dashboard is not built in ${dir}. <code>npm start</code> serves it with hot reload; <code>npm run dashboard:build</code> builds it.</p>`;

async function readOrNull(file: string): Promise<Buffer | null> {
  try {
    return await fs.readFile(file);
  } catch {
    return null;
  }
}

/**
 * The dashboard (docs/dashboard.md): one page whose routes live after `#`, so the server answers two paths and
 * no others, and the session cookie of /auth/login works because it is the same origin.
 */
export function dashboardRoutes(deps: Deps): RouteDef[] {
  const dir = path.resolve(deps.config.DASHBOARD_DIR);
  // An asset's name changes with its content, so a file once read is that file for good; a miss is not kept,
  // as a build may still be writing the folder.
  const assets = new Map<string, Buffer>();
  const asset = async (file: string) => {
    const known = assets.get(file);
    if (known) return known;
    const body = await readOrNull(path.join(dir, 'assets', file));
    if (body) assets.set(file, body);
    return body;
  };
  return [
    defineRoute({
      method: 'get',
      path: '/app',
      tag: 'Dashboard',
      summary: 'The dashboard, a single-page app over this API',
      auth: 'none',
      responses: { 200: { description: 'The app', contentType: 'text/html', schema: z.string() } },
      handler: async (ctx: AppContext) => {
        const html = await readOrNull(path.join(dir, 'index.html'));
        ctx.type = 'text/html; charset=utf-8';
        ctx.set('Cache-Control', 'no-cache');
        ctx.set('Content-Security-Policy', APP_POLICY);
        ctx.body = html ?? notBuilt(deps.config.DASHBOARD_DIR);
      },
    }),
    defineRoute({
      method: 'get',
      path: '/app/assets/{file}',
      tag: 'Dashboard',
      summary: "One of the dashboard's built scripts or stylesheets",
      auth: 'none',
      params: AssetParams,
      responses: {
        200: {
          description: 'The file; its name changes with its content, so it is cached for a year',
          contentType: 'text/javascript',
          schema: z.string(),
        },
        404: { description: 'No such file' },
      },
      handler: async (ctx: AppContext, { params }) => {
        const body = await asset(params.file);
        if (!body)
          throw new ApiError(404, 'NOT_FOUND', `No dashboard asset ${params.file}`, {
            suggestion: 'Reload /app to get the current build.',
          });
        ctx.type = TYPES[path.extname(params.file).slice(1)] ?? 'application/octet-stream';
        ctx.set('Cache-Control', 'public, max-age=31536000, immutable');
        ctx.body = body;
      },
    }),
  ];
}
