import { useState } from 'preact/hooks';
import { api, call } from '../../api/client';
import { can, useProject, useSession } from '../../session';
import { ConfirmButton, CopyText } from '../../ui/actions';
import { ErrorNote } from '../../ui/feedback';
import { PageHeader, Section } from '../../ui/layout';
import { useAction } from '../../ui/use-load';

/** The project's keys: the secret one shows in full only right after a rotation. */
export function ApiKeys() {
  const project = useProject();
  const { refresh } = useSession();
  const [fresh, setFresh] = useState<string | null>(null);
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
          <div class="notice" role="status">
            <p>Your new secret key. Copy it now: it is shown only once.</p>
            <CopyText label="secret key" value={fresh} />
          </div>
        ) : (
          <code>{project.secret}</code>
        )}
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
