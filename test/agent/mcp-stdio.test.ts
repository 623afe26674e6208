import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { startStack, type TestStack } from '../helpers/stack';
import { tenant } from '../helpers/tenants';
import { recipient } from '../emails/helpers';
import { declaredRoutes } from '../../src/app/declared-routes';
import { isEligible } from '../../src/modules/agent/catalog';
import { baseUrl, structured } from './helpers';

let stack: TestStack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack?.close());

const BIN = path.resolve(__dirname, '..', '..', 'bin', 'postwire-mcp.js');

/** The official SDK's client on `postwire-mcp`, started as an assistant starts it: a process, key in its environment. */
async function stdioClient(key: string, url = baseUrl(stack)): Promise<Client> {
  const client = new Client({ name: 'postwire-test', version: '1.0.0' });
  const env = { PATH: process.env.PATH ?? '', HOME: '/nonexistent', POSTWIRE_API_KEY: key, POSTWIRE_URL: url };
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [BIN], env, stderr: 'pipe' }));
  return client;
}

describe('postwire-mcp over stdio with the official SDK client', () => {
  it('lists the same tools as POST /mcp, calls a write and a read tool against the API, and relays its errors', async () => {
    const { project } = await tenant(stack);
    const client = await stdioClient(project.secret);
    try {
      const { tools } = await client.listTools();
      expect(tools).toHaveLength(declaredRoutes().filter(isEligible).length + 3);
      const email = recipient();
      expect(structured(await client.callTool({ name: 'contacts_create', arguments: { email } }))).toMatchObject({ email });
      const listed = structured<{ data: Array<{ email: string }> }>(await client.callTool({ name: 'contacts_list', arguments: {} }));
      expect(listed.data.map((c) => c.email)).toEqual([email]);
      const bad = await client.callTool({ name: 'segments_create', arguments: { name: '' } });
      expect(bad).toMatchObject({ isError: true, structuredContent: { error: { code: 'VALIDATION_ERROR', statusCode: 422 } } });
      const { resources } = await client.listResources();
      expect(resources.length).toBeGreaterThan(20);
    } finally {
      await client.close();
    }
  });

  it('with a public key, every call is refused by the API', async () => {
    const { project } = await tenant(stack);
    const client = await stdioClient(project.public);
    try {
      const res = await client.callTool({ name: 'contacts_list', arguments: {} });
      expect(res).toMatchObject({ isError: true, structuredContent: { error: { code: 'INVALID_API_KEY', statusCode: 401 } } });
    } finally {
      await client.close();
    }
  });

  it('says so, as a tool error, when the API cannot be reached', async () => {
    const client = await stdioClient('sk_any', 'http://127.0.0.1:9');
    try {
      const res = await client.callTool({ name: 'contacts_list', arguments: {} });
      expect(res).toMatchObject({ isError: true, structuredContent: { error: { code: 'API_UNREACHABLE', statusCode: 503 } } });
      expect((res.content as Array<{ text: string }>)[0]!.text).toContain('could not reach the API at http://127.0.0.1:9');
    } finally {
      await client.close();
    }
  });
});
