import { setImmediate as nextTurn } from 'node:timers/promises';
import { Liquid, LiquidError, type Context, type Emitter, type Template } from 'liquidjs';
import { COALESCE_FILTER, preprocessTemplate } from './preprocess';
import { TemplateError } from './template-error';

/** Longest template source accepted (characters); longer ones are refused when parsed. */
export const MAX_TEMPLATE_LENGTH = 1_000_000;
/**
 * Tags and outputs (`{% %}`, `{{ }}`) of one template. liquidjs parses a template in time that grows with the
 * square of its tags (it shifts each token off the front of one array): 140,000 took 6-11 s of CPU, 2,000 take
 * about 10 ms. Counted before parsing, so a template beyond it costs nothing.
 */
export const MAX_TEMPLATE_TAGS = 2_000;
/** The longest a render keeps the event loop before it lets other work run; its 1 s budget is unchanged. */
const RENDER_SLICE_MS = 5;
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
  sliceRenders(engine);
  engine.registerFilter(COALESCE_FILTER, (value: unknown, fallback: unknown) => (value === undefined || value === null ? fallback : value));
  return engine;
}

/** When each render last let the event loop run, by the render's context (one per render, shared by its loops). */
const sliceStarts = new WeakMap<Context, number>();

/**
 * Makes every render yield to the event loop once it has run RENDER_SLICE_MS: liquidjs renders a whole template
 * (every loop iteration) within one macrotask, so a template spending its 1 s budget froze every request of the
 * process for that second. Each block (a loop body per iteration, a branch, the template) goes through
 * `renderTemplates`, and a promise it yields is awaited by liquidjs's async render, so the wait lets the
 * event loop take other work between slices. A render that finishes within one slice never waits.
 */
function sliceRenders(engine: Liquid): void {
  const renderer = engine.renderer;
  const renderTemplates = renderer.renderTemplates.bind(renderer);
  renderer.renderTemplates = function* (templates: Template[], ctx: Context, emitter?: Emitter) {
    const now = performance.now();
    const started = sliceStarts.get(ctx);
    if (started === undefined) sliceStarts.set(ctx, now);
    else if (now - started > RENDER_SLICE_MS) {
      yield nextTurn();
      sliceStarts.set(ctx, performance.now());
    }
    return yield* renderTemplates(templates, ctx, emitter);
  };
}

const engines: Record<Output, Liquid> = { html: createEngine('html'), text: createEngine('text') };
/**
 * Parsed templates by source and output kind, oldest source first; campaigns render one source many times. Keyed
 * by the source itself: a key built per lookup (the kind and the source joined) was copied and hashed whole on
 * every render of every recipient, where the same source string's hash is computed once.
 */
const parsed = new Map<string, Partial<Record<Output, Template[]>>>();
let cachedCharacters = 0;

function remember(source: string, output: Output, templates: Template[]): void {
  const entry = parsed.get(source) ?? {};
  entry[output] = templates;
  parsed.set(source, entry);
  cachedCharacters += source.length;
  for (const [oldest, held] of parsed) {
    if (cachedCharacters <= CACHE_CHARACTERS) break;
    parsed.delete(oldest);
    cachedCharacters -= oldest.length * Object.keys(held).length;
  }
}

function toTemplateError(err: unknown): TemplateError {
  if (err instanceof TemplateError) return err;
  if (!LiquidError.is(err)) throw err;
  const line = err.token?.getPosition()[0] ?? null;
  const reason = (err.originalError?.message ?? err.message).replace(/, line:\d+, col:\d+$/, '');
  return new TemplateError(line, reason);
}

/** `{{` and `{%` in the source, up to one past the limit. */
function tagsIn(source: string): number {
  let tags = 0;
  for (let at = source.indexOf('{'); at >= 0 && tags <= MAX_TEMPLATE_TAGS; at = source.indexOf('{', at + 1)) {
    const next = source.charCodeAt(at + 1);
    if (next === 0x7b || next === 0x25) tags++;
  }
  return tags;
}

/** Parses a template (with this module's notations), throwing TemplateError when Liquid refuses it. */
export function parseTemplate(source: string, output: Output): Template[] {
  const cached = parsed.get(source)?.[output];
  if (cached) return cached;
  if (tagsIn(source) > MAX_TEMPLATE_TAGS) {
    throw new TemplateError(null, `A template holds at most ${MAX_TEMPLATE_TAGS.toLocaleString('en')} tags and outputs ({% %} and {{ }})`);
  }
  let templates: Template[];
  try {
    templates = engines[output].parse(preprocessTemplate(source));
  } catch (err) {
    throw toTemplateError(err);
  }
  remember(source, output, templates);
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
