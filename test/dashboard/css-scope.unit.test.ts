import fs from 'node:fs';
import path from 'node:path';

/**
 * The dashboard's stylesheets stay scoped (docs/contributors/dashboard.md "Design system"): all of them end up in one sheet,
 * so a rule a page writes applies on every page. The kit (ui/styles.css) styles the shared components; every
 * other stylesheet starts each selector with a class of its own: one no other stylesheet starts a selector with,
 * and not one of the kit's. A bare element (`li`, `pre`) or a kit class (`.card h3`) at the start of a page's
 * selector would restyle every page; `.timeline li` in two files squeezed the contact's events into a column.
 */
const dashboard = path.join(__dirname, '..', '..', 'src', 'dashboard');
const KIT = path.join(dashboard, 'ui', 'styles.css');

function cssFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return cssFiles(full);
    return entry.name.endsWith('.css') ? [full] : [];
  });
}

/** Every selector of a stylesheet (inside @media blocks too), comments removed. */
function selectorsOf(css: string): string[] {
  const text = css.replace(/\/\*[\s\S]*?\*\//g, '');
  return [...text.matchAll(/([^{}]+)\{/g)]
    .map((m) => m[1]!.trim())
    .filter((s) => !s.startsWith('@'))
    .flatMap((s) => s.split(',').map((one) => one.trim()))
    .filter(Boolean);
}

/** The first class of a selector's leftmost part (`:root[data-theme] .x` starts at `.x`), or null for none. */
function rootClassOf(selector: string): string | null {
  const parts = selector.split(/\s*[\s>+~]\s*/).filter((p) => p && !p.startsWith(':root') && p !== 'html');
  const first = parts[0] ?? '';
  return /^[a-z0-9-]*\.([\w-]+)/i.exec(first)?.[1] ?? null;
}

const rel = (file: string) => path.relative(dashboard, file);

describe('the dashboard stylesheets', () => {
  const kitClasses = new Set(selectorsOf(fs.readFileSync(KIT, 'utf8')).flatMap((s) => [...s.matchAll(/\.([\w-]+)/g)].map((m) => m[1]!)));
  const pages = cssFiles(dashboard).filter((f) => f !== KIT);

  it('finds the stylesheets and reads a selector the way the rule means', () => {
    expect(pages.length).toBeGreaterThan(5);
    expect(rootClassOf('.timeline li')).toBe('timeline');
    expect(rootClassOf('li.step > span')).toBe('step');
    expect(rootClassOf('fieldset legend')).toBeNull();
    expect(rootClassOf(":root[data-theme='dark'] .flow-node")).toBe('flow-node');
    expect(selectorsOf('/* a */ .a, .b li { x: 1 } @media (max-width: 1px) { .c { y: 2 } }')).toEqual(['.a', '.b li', '.c']);
  });

  it('start every selector of a page or component with a class that stylesheet owns', () => {
    const owner = new Map<string, string>();
    const problems: string[] = [];
    for (const file of pages) {
      for (const selector of selectorsOf(fs.readFileSync(file, 'utf8'))) {
        const root = rootClassOf(selector);
        if (!root) problems.push(`${rel(file)}: "${selector}" starts with no class: it styles that element on every page`);
        else if (kitClasses.has(root)) problems.push(`${rel(file)}: "${selector}" restyles the kit's .${root} on every page`);
        else if (owner.has(root) && owner.get(root) !== file)
          problems.push(`${rel(file)}: .${root} is styled by ${rel(owner.get(root)!)} too`);
        else if (root) owner.set(root, file);
      }
    }
    expect(problems).toEqual([]);
  });
});
