import { Client } from 'pg';
import type { TestStack } from './stack';

/**
 * The plans of the statements that `next` runs, triggers' statements included, read through auto_explain on a
 * connection of the test's own after `first` ran on it: PL/pgSQL plans a trigger's statement once per connection,
 * with the sizes of its first run, so a test makes that first run and reads what the next statements did.
 */
export async function plansAfter(
  stack: TestStack,
  first: (c: Client) => Promise<unknown>,
  next: (c: Client) => Promise<unknown>,
): Promise<string[]> {
  const connection = new Client({ connectionString: stack.deps.config.DATABASE_URL });
  await connection.connect();
  try {
    const plans: string[] = [];
    connection.on('notice', (notice) => plans.push(notice.message ?? ''));
    await connection.query(`load 'auto_explain'`);
    await connection.query(
      `set auto_explain.log_min_duration = 0; set auto_explain.log_nested_statements = on; set auto_explain.log_level = notice;
       set auto_explain.log_analyze = on; set auto_explain.log_timing = off`,
    );
    await first(connection);
    plans.length = 0;
    await next(connection);
    return plans;
  } finally {
    await connection.end();
  }
}
