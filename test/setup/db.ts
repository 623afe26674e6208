import { Client } from 'pg';

export const adminUrl = () => {
  const url = process.env.TEST_POSTGRES_ADMIN_URL;
  if (!url) throw new Error('TEST_POSTGRES_ADMIN_URL is not set: run the tests with `npm test`');
  return url;
};

export const databaseUrl = (name: string) => {
  const url = new URL(adminUrl());
  url.pathname = `/${name}`;
  return url.toString();
};

export async function admin<T>(fn: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: adminUrl() });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

export const templateName = (runId: string) => `pw_test_${runId}_template`;
export const workerDbName = (runId: string, worker: string) => `pw_test_${runId}_w${worker}`;
