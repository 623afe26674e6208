import fs from 'node:fs';
import path from 'node:path';

/**
 * The users' pages of docs/ share one layout: a working example ("Try it"), where the feature is in the dashboard,
 * what can be set ("What you can set"), then the rules; how it is built and measured is in docs/contributors/, one
 * page per users' page, linked from that page's end and from the contributors' index.
 */
const docs = path.resolve(__dirname, '..', '..', 'docs');
const contributors = path.join(docs, 'contributors');

/** Pages that are not users' pages, or not in this layout yet, and why. */
const NOT_IN_THE_LAYOUT: Record<string, string> = {
  'architecture.md': 'for contributors as a whole',
  'settings.md': 'the reference of every setting, by area',
};

const usersPages = fs
  .readdirSync(docs)
  .filter((file) => file.endsWith('.md') && !(file in NOT_IN_THE_LAYOUT))
  .sort();
const contributorsPages = fs
  .readdirSync(contributors)
  .filter((file) => file.endsWith('.md') && file !== 'README.md')
  .sort();
const read = (file: string) => fs.readFileSync(file, 'utf8');
/** The `## ` headings of a page, outside code blocks. */
function headings(text: string): string[] {
  let fenced = false;
  return text.split('\n').flatMap((line) => {
    if (line.startsWith('```')) fenced = !fenced;
    return !fenced && line.startsWith('## ') ? [line.slice(3).trim()] : [];
  });
}

describe('the layout of docs/', () => {
  it('covers every users page but those listed, which exist', () => {
    expect(usersPages.length).toBeGreaterThan(25);
    for (const file of Object.keys(NOT_IN_THE_LAYOUT)) expect(fs.existsSync(path.join(docs, file))).toBe(true);
  });

  it.each(usersPages)('%s opens with "Try it", then "What you can set", and says where it is in the dashboard', (file) => {
    const text = read(path.join(docs, file));
    expect(headings(text).slice(0, 2)).toEqual(['Try it', 'What you can set']);
    expect(text).toMatch(/In the dashboard/);
  });

  it.each(contributorsPages)('contributors/%s is linked from the end of its users page and from the index', (file) => {
    const link = `[contributors/${file}](contributors/${file})`;
    const usersPage = read(path.join(docs, file));
    expect(usersPage).toContain(link);
    expect(usersPage.trimEnd().split('\n').at(-1)).toContain(link);
    expect(read(path.join(contributors, 'README.md'))).toContain(`[${file}](${file})`);
  });
});
