import fs from 'node:fs';
import path from 'node:path';

/**
 * The docs are linked from the code, the tests, the benches and each other, by path and often by section
 * (`docs/sending.md "Scheduled sends"`). A page moved or a section renamed must not leave those pointing at nothing,
 * docs/contributors/ included.
 */
const root = path.resolve(__dirname, '..', '..');
const SOURCE_DIRS = ['src', 'test', 'bench', 'scripts', 'workflows', 'activities', 'docs', 'deploy'];
const ROOT_FILES = ['README.md', '.env.example', 'docker-compose.yml', 'Dockerfile'];
const TEXT = /\.(ts|tsx|mts|js|mjs|sh|md|yml|yaml)$/;
const SKIP_DIRS = new Set(['node_modules', 'histories', 'dist']);

function walk(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return SKIP_DIRS.has(entry.name) ? [] : walk(full);
    return TEXT.test(entry.name) ? [full] : [];
  });
}

const files = [
  ...SOURCE_DIRS.flatMap((dir) => walk(path.join(root, dir))),
  ...ROOT_FILES.map((file) => path.join(root, file)).filter((file) => fs.existsSync(file)),
];
const relative = (file: string) => path.relative(root, file);
const lineOf = (text: string, index: number) => text.slice(0, index).split('\n').length;

/** What a quoted section may name: a heading of the page, or the bold lead-in of one of its items (`**Where.**`). */
function sectionsOf(page: string): Set<string> {
  const names = new Set<string>();
  let fenced = false;
  for (const line of fs.readFileSync(page, 'utf8').split('\n')) {
    if (line.startsWith('```')) fenced = !fenced;
    if (fenced) continue;
    const heading = /^#{1,6} (.+)$/.exec(line);
    if (heading) names.add(heading[1]!.trim());
    for (const bold of line.matchAll(/\*\*([^*]+?)\.?\*\*/g)) names.add(bold[1]!.trim());
  }
  return names;
}
const sections = new Map<string, Set<string>>();
const sectionsCached = (page: string) => sections.get(page) ?? sections.set(page, sectionsOf(page)).get(page)!;

describe('links to the docs', () => {
  it('finds the docs pages, docs/contributors/ included', () => {
    const pages = files.map(relative).filter((file) => file.startsWith('docs/'));
    expect(pages).toContain('docs/contributors/README.md');
    expect(pages.length).toBeGreaterThan(30);
  });

  it('names pages that exist, and sections those pages have (docs/<page>.md "<section>")', () => {
    const broken: string[] = [];
    for (const file of files) {
      const text = fs.readFileSync(file, 'utf8');
      for (const ref of text.matchAll(/(?<![\w/.-])((?:docs|bench)\/[\w/-]+\.md)(?: "([^"\n]+)")?/g)) {
        const [, page, section] = ref;
        const where = `${relative(file)}:${lineOf(text, ref.index)}`;
        const target = path.join(root, page!);
        if (!fs.existsSync(target)) broken.push(`${where} ${page}: no such page`);
        else if (section && ![...sectionsCached(target)].some((name) => name === section || name.startsWith(section)))
          broken.push(`${where} ${page} "${section}": no such section`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('has every relative Markdown link resolve to a file', () => {
    const broken: string[] = [];
    for (const file of files.filter((f) => f.endsWith('.md'))) {
      const text = fs.readFileSync(file, 'utf8');
      for (const link of text.matchAll(/\]\(([^)\s#]+)(?:#[^)]*)?\)/g)) {
        const target = link[1]!;
        if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue;
        if (!fs.existsSync(path.resolve(path.dirname(file), target)))
          broken.push(`${relative(file)}:${lineOf(text, link.index)} ${target}`);
      }
    }
    expect(broken).toEqual([]);
  });
});
