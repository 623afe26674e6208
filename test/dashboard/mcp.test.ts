import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startStack } from '../helpers/stack';
import { checkPage, freshSession, logInAs } from '../helpers/browser';
import { dashboardSuite } from '../helpers/dashboard-suite';
import { createProject, signupUser } from '../helpers/fixtures';

const suite = dashboardSuite(() => startStack());

interface Snippet {
  mcpServers: { postwire: { type: string; url: string; headers: Record<string, string> } };
}

describe('the dashboard: the MCP endpoint on the API keys page', () => {
  it('shows the endpoint and a client configuration that, once the key is in it, connects an MCP client', async () => {
    const user = await signupUser(suite.stack);
    const project = await createProject(suite.stack, user, 'Assistants');
    const session = await freshSession(suite.browser);
    const { page } = session;
    await logInAs(session, user, project.id, '/keys');
    const section = page.locator('section', { hasText: 'Assistants (MCP)' });
    const endpoint = new URL('/mcp', suite.browser.base).toString();
    expect(await section.locator('code').first().textContent()).toBe(endpoint);
    const placeholder = JSON.parse((await section.getByLabel('MCP client configuration', { exact: true }).textContent()) ?? '') as Snippet;
    expect(placeholder.mcpServers.postwire).toEqual({
      type: 'http',
      url: endpoint,
      headers: { Authorization: 'Bearer <your secret key>' },
    });
    await checkPage(page, 'keys-mcp');

    // After a rotation the page knows the new secret in full, and the snippet carries it.
    await page.getByRole('button', { name: 'Rotate keys' }).click();
    await page.getByRole('button', { name: 'Yes, rotate keys' }).click();
    const fresh = await page.locator('.notice code').textContent();
    await section.getByLabel('MCP client configuration', { exact: true }).filter({ hasText: fresh! }).waitFor();
    const snippet = JSON.parse((await section.getByLabel('MCP client configuration', { exact: true }).textContent()) ?? '') as Snippet;
    const { url, headers } = snippet.mcpServers.postwire;
    const client = new Client({ name: 'dashboard-snippet', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }));
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toContain('contacts_list');
    await client.close();
    await session.close();
  });
});
