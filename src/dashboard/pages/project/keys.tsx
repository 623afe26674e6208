import { useState } from 'preact/hooks';
import { api, call } from '../../api/client';
import { can, useProject, useSession } from '../../session';
import { ConfirmButton, CopyBlock, CopyText } from '../../ui/actions';
import { ErrorNote, Notice } from '../../ui/feedback';
import { PageHeader, Section } from '../../ui/layout';
import { useAction } from '../../ui/use-load';

/** An MCP client's entry for this server (docs/mcp.md), with the key when the page knows it in full. */
const mcpSnippet = (endpoint: string, secret: string | null) =>
  JSON.stringify(
    { mcpServers: { postwire: { type: 'http', url: endpoint, headers: { Authorization: `Bearer ${secret ?? '<your secret key>'}` } } } },
    null,
    2,
  );

/** The project's keys, and the MCP endpoint they open to assistants: the secret key shows in full only right after a rotation. */
export function ApiKeys() {
  const project = useProject();
  const { refresh } = useSession();
  const [fresh, setFresh] = useState<string | null>(null);
  // The dashboard is served by the API it calls, so the endpoint is on this page's origin.
  const endpoint = `${window.location.origin}/mcp`;
  const rotate = useAction(async () => {
    const rotated = await call(api.POST('/users/@me/projects/{id}/regenerate-keys', { params: { path: { id: project.id } } }));
    setFresh(rotated.secret);
    await refresh();
  });
  return (
    <>
      <PageHeader title="API keys" />
      <Section title="Public key">
        <p>
          For <code>POST /v1/track</code> from browsers and apps; safe to embed.
        </p>
        <CopyText label="public key" value={project.public} />
      </Section>
      <Section title="Secret key">
        <p>For every other endpoint, from your servers only.</p>
        {fresh ? (
          <Notice tone="good" role="status">
            <p>Your new secret key. Copy it now: it is shown only once.</p>
            <CopyText label="secret key" value={fresh} />
          </Notice>
        ) : (
          <code>{project.secret}</code>
        )}
      </Section>
      <Section title="Assistants (MCP)">
        <p>
          AI assistants reach this project through the Model Context Protocol endpoint, with the secret key as a Bearer token: a tool for
          every API operation, and tools that explain a delivery, simulate an automation for a contact or show an execution's timeline.
        </p>
        <CopyText label="MCP endpoint" value={endpoint} />
        <p>
          Add this to your assistant's MCP configuration{fresh ? '' : ', with your secret key in place of the placeholder'}. The
          command-line client takes the same key: <code>POSTWIRE_API_KEY=sk_… npx postwire contacts list</code>.
        </p>
        <CopyBlock label="MCP client configuration" value={mcpSnippet(endpoint, fresh)} />
      </Section>
      {can.own(project.role) ? (
        <Section title="Rotate keys">
          <p>Rotating replaces both keys at once; integrations using the old ones stop working immediately.</p>
          <ConfirmButton
            label="Rotate keys"
            confirm="Replace both keys now?"
            danger
            onConfirm={() => rotate.run()}
            disabled={rotate.pending}
          />
          <ErrorNote error={rotate.error} />
        </Section>
      ) : null}
    </>
  );
}
