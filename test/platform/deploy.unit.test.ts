import { readFileSync } from 'node:fs';
import path from 'node:path';
import { SEARCH_ATTRIBUTES } from '../../workflows/search-attributes';

const root = path.resolve(__dirname, '..', '..');
const read = (file: string) => readFileSync(path.join(root, file), 'utf8');

/**
 * docker-compose.yml and `npm run cluster` (docs/cluster.md) set up Temporal with the same deploy/temporal/
 * scripts, and scripts/build-temporal-server.sh builds the release the compose file names.
 */
describe('the Temporal setup of docker-compose.yml and npm run cluster', () => {
  it('registers exactly the search attributes the workflows set', () => {
    const listed = /^SEARCH_ATTRIBUTES="([^"]*)"$/m.exec(read('deploy/temporal/setup-namespace.sh'))?.[1]?.split(' ');
    expect(listed?.sort()).toEqual(SEARCH_ATTRIBUTES.map((a) => `${a.name}:${a.cliType}`).sort());
  });

  it('runs one Temporal release in every image of the compose file, the one the cluster builds', () => {
    const versions = [...read('docker-compose.yml').matchAll(/temporalio\/(server|admin-tools):\$\{TEMPORAL_VERSION:-([^}]+)\}/g)].map(
      (m) => m[2],
    );
    expect(versions).toHaveLength(3);
    expect(new Set(versions).size).toBe(1);
    expect(read('scripts/build-temporal-server.sh')).toContain('temporalio/server:${TEMPORAL_VERSION:-');
  });
});
