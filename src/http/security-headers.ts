import type { Next } from 'koa';
import type { AppContext } from './context';

/**
 * Pages are plain HTML with one inline stylesheet and forms that post back here: no script, no image, no
 * frame, no outside resource, so the policy allows nothing else.
 */
const HTML_POLICY = [
  "default-src 'none'",
  "style-src 'unsafe-inline'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
].join('; ');

/**
 * Headers every response carries, failures and 404s included (set before anything can answer); HTML pages
 * also forbid framing and everything but their own inline style.
 */
export function securityHeaders() {
  return async (ctx: AppContext, next: Next) => {
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.set('Referrer-Policy', 'no-referrer');
    try {
      await next();
    } finally {
      if (ctx.response.is('html')) {
        // The dashboard's page sets a policy of its own that allows its scripts.
        if (!ctx.response.get('Content-Security-Policy')) ctx.set('Content-Security-Policy', HTML_POLICY);
        ctx.set('X-Frame-Options', 'DENY');
      }
    }
  };
}
