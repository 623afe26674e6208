import { startStack, type TestStack } from '../helpers/stack';
import { sql } from '../helpers/seed';
import { PROJECT_DATA_TABLES, PROJECT_SETUP_TABLES } from '../../src/modules/projects/project-data';

let stack: TestStack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack.close());

describe('project tables', () => {
  it('sorts every table with a project_id into data (reset wipes it) or setup (reset keeps it)', async () => {
    const rows = await sql<{ table_name: string }>(
      stack,
      `select table_name from information_schema.columns
       where table_schema = current_schema() and column_name = 'project_id' order by table_name`,
    );
    const classified = [...PROJECT_DATA_TABLES, ...PROJECT_SETUP_TABLES].sort();
    expect(rows.map((r) => r.table_name)).toEqual(classified);
  });
});
