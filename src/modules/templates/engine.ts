import { Liquid, LiquidError, type Template } from 'liquidjs';
import { COALESCE_FILTER, preprocessTemplate } from './preprocess';
import { TemplateError } from './template-error';

/** Longest template source accepted (characters); longer ones are refused when parsed. */
export const MAX_TEMPLATE_LENGTH = 1_000_000;
/** Wall-clock budget of one render, in milliseconds. */
const RENDER_LIMIT_MS = 1_000;
/** Rough allocation budget of one render (loop ranges, string building), in Liquid's own units. */
const MEMORY_LIMIT = 10_000_000;
/** Parsed templates hold their source; the cache keeps at most this many source characters. */
const CACHE_CHARACTERS = 20_000_000;
/** Tags that would read other templates from a file system; templates are self-contained. */
const FILE_TAGS = ['include', 'render', 'layout', 'block'];

export type Output = 'html' | 'text';

function createEngine(output: Output): Liquid {
  const engine = new Liquid({
    strictFilters: true,
    ownPropertyOnly: true,
    // Values land in HTML unescaped only through `| raw`: contact data may come from public tracking calls.
    outputEscape: output === 'html' ? 'escape' : undefined,
    // Dates render in UTC whatever the server's zone, so an email reads the same from every worker.
    timezoneOffset: 0,
    parseLimit: MAX_TEMPLATE_LENGTH,
    renderLimit: RENDER_LIMIT_MS,
    memoryLimit: MEMORY_LIMIT,
  });
  for (const tag of FILE_TAGS) delete engine.tags[tag];
  engine.registerFilter(COALESCE_FILTER, (value: unknown, fallback: unknown) => (value === undefined || value === null ? fallback : value));
  return engine;
}

const engines: Record<Output, Liquid> = { html: createEngine('html'), text: createEngine('text') };
/** Parsed templates by output kind and source, oldest first; campaigns render one source many times. */
const parsed = new Map<string, Template[]>();
let cachedCharacters = 0;

function remember(key: string, templates: Template[]): void {
  cachedCharacters += key.length;
  parsed.set(key, templates);
  for (const oldest of parsed.keys()) {
    if (cachedCharacters <= CACHE_CHARACTERS) break;
    parsed.delete(oldest);
    cachedCharacters -= oldest.length;
  }
}

function toTemplateError(err: unknown): TemplateError {
  if (err instanceof TemplateError) return err;
  if (!LiquidError.is(err)) throw err;
  const line = err.token?.getPosition()[0] ?? null;
  const reason = (err.originalError?.message ?? err.message).replace(/, line:\d+, col:\d+$/, '');
  return new TemplateError(line, reason);
}

/** Parses a template (with this module's notations), throwing TemplateError when Liquid refuses it. */
export function parseTemplate(source: string, output: Output): Template[] {
  const key = `${output}\0${source}`;
  const cached = parsed.get(key);
  if (cached) return cached;
  let templates: Template[];
  try {
    templates = engines[output].parse(preprocessTemplate(source));
  } catch (err) {
    throw toTemplateError(err);
  }
  remember(key, templates);
  return templates;
}

export async function renderParsed(templates: Template[], output: Output, scope: Record<string, unknown>): Promise<string> {
  try {
    return (await engines[output].render(templates, scope)) as string;
  } catch (err) {
    throw toTemplateError(err);
  }
}

/** The variables a parsed template reads from its scope, in order of first use (`contact.email`, `plan`). */
export function variablesOf(templates: Template[], output: Output): string[] {
  return engines[output].globalFullVariablesSync(templates);
}
