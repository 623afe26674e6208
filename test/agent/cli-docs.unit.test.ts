import fs from 'node:fs';
import { cliDocs, cliDocsFile } from '../../scripts/lib/cli-docs';

describe('docs/cli.md', () => {
  it('carries the command reference generated from the route list (run `npm run openapi` when it differs)', () => {
    const committed = fs.readFileSync(cliDocsFile, 'utf8');
    expect(committed === cliDocs() ? 'up to date' : 'docs/cli.md differs from the routes: run `npm run openapi` and commit it').toBe(
      'up to date',
    );
  });
});
