import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Resource } from '@modelcontextprotocol/sdk/types.js';

export const OPENAPI_URI = 'postwire://openapi.json';
const DOC_PREFIX = 'postwire://docs/';

/** docs/ of the repository: two levels above src/modules, three above dist/src/modules (the image copies it). */
function docsDir(): string | undefined {
  return [path.resolve(__dirname, '../../../../docs'), path.resolve(__dirname, '../../../../../docs')].find((dir) =>
    existsSync(path.join(dir, 'architecture.md')),
  );
}

/** The first heading of a page, as its title. */
const titleOf = (text: string, fallback: string) => /^#\s+(.+)$/m.exec(text)?.[1]?.trim() ?? fallback;

/** The folders of docs/ whose pages are resources: the users' pages, then the contributors'. */
const DOC_FOLDERS = ['', 'contributors/'];
/** A page's name under docs/: a folder of DOC_FOLDERS and a file name, never a path out of docs/. */
const DOC_PAGE = /^(contributors\/)?[A-Za-z0-9-]+\.md$/;

async function pagesIn(dir: string): Promise<string[]> {
  const folders = await Promise.all(
    DOC_FOLDERS.map(async (folder) =>
      existsSync(path.join(dir, folder)) ? (await readdir(path.join(dir, folder))).map((file) => `${folder}${file}`) : [],
    ),
  );
  return folders.flatMap((files) => files.filter((file) => DOC_PAGE.test(file)).sort());
}

/** The docs/ pages and the OpenAPI document, as MCP resources (docs/mcp.md "Resources"). */
export async function listResources(): Promise<Resource[]> {
  const dir = docsDir();
  const pages = dir ? await pagesIn(dir) : [];
  const docs = await Promise.all(
    pages.map(async (file) => ({
      uri: `${DOC_PREFIX}${file}`,
      name: file.replace(/\.md$/, ''),
      title: titleOf(await readFile(path.join(dir!, file), 'utf8'), file),
      mimeType: 'text/markdown',
    })),
  );
  return [
    {
      uri: OPENAPI_URI,
      name: 'openapi',
      title: 'The HTTP contract: the OpenAPI 3.1 document of this server',
      mimeType: 'application/json',
    },
    ...docs,
  ];
}

/** The text of a docs/ page named by its URI, or undefined when there is none. */
export async function readDoc(uri: string): Promise<string | undefined> {
  const dir = docsDir();
  if (!dir || !uri.startsWith(DOC_PREFIX)) return undefined;
  const file = uri.slice(DOC_PREFIX.length);
  if (!DOC_PAGE.test(file)) return undefined;
  const full = path.join(dir, file);
  return existsSync(full) ? readFile(full, 'utf8') : undefined;
}
