import { api, call } from '../../api/client';
import { href } from '../../router';
import { ErrorNote, WhenLoaded } from '../../ui/feedback';
import { PageHeader, Section } from '../../ui/layout';
import { dateTime } from '../../ui/format';
import { useAction, useLoad } from '../../ui/use-load';
import { AuthBadge } from './list';

/** Saves bytes the API answered (with the session, which a plain link would not carry) as a file. */
function save(blob: Blob, name: string) {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 1_000);
}

/** One inbound email: who sent it, the checks, the email it answers, its text, attachments and the raw message. */
export function InboundMessage({ params }: { params: Record<string, string> }) {
  const path = { id: params.id! };
  const message = useLoad(() => call(api.GET('/inbound/{id}', { params: { path } })), [params.id]);
  const download = useAction(async (index: number | null, name: string) => {
    const answer =
      index === null
        ? await api.GET('/inbound/{id}/raw', { params: { path }, parseAs: 'blob' })
        : await api.GET('/inbound/{id}/attachments/{index}', { params: { path: { ...path, index } }, parseAs: 'blob' });
    if (!answer.response.ok || !(answer.data instanceof Blob)) throw new Error(`The download failed (${answer.response.status})`);
    save(answer.data, name);
  });
  const shown = message.data?.data;
  return (
    <>
      <PageHeader
        title={shown ? shown.subject || '(no subject)' : 'Inbound email'}
        back={{ path: '/inbound', label: 'All inbound mail' }}
      />
      <ErrorNote error={download.error} />
      <WhenLoaded loaded={message}>
        {({ data: m }) => (
          <>
            <dl class="facts">
              <dt>From</dt>
              <dd class="break-anywhere">
                {m.contactId ? <a href={href(`/contacts/${m.contactId}`)}>{m.from.email}</a> : m.from.email}
                {m.from.name ? ` (${m.from.name})` : ''}
              </dd>
              <dt>To</dt>
              <dd class="break-anywhere">{m.to.map((a) => a.email).join(', ') || '—'}</dd>
              {m.cc.length ? (
                <>
                  <dt>Cc</dt>
                  <dd class="break-anywhere">{m.cc.map((a) => a.email).join(', ')}</dd>
                </>
              ) : null}
              <dt>Received</dt>
              <dd>{dateTime(m.receivedAt)}</dd>
              <dt>Checks</dt>
              <dd>
                <AuthBadge auth={m.auth} />
              </dd>
              <dt>Answers</dt>
              <dd>
                {m.inReplyToEmail ? (
                  <>
                    <a href={href(`/emails/${m.inReplyToEmail.id}`)}>Our email</a>
                    {m.inReplyToEmail.campaignId ? (
                      <>
                        {' of '}
                        <a href={href(`/campaigns/${m.inReplyToEmail.campaignId}`)}>a campaign</a>
                      </>
                    ) : null}
                  </>
                ) : (
                  '—'
                )}
              </dd>
            </dl>
            <Section title="Text">
              <pre class="message-text">{m.text ?? '(no plain text part)'}</pre>
            </Section>
            {m.attachments.length ? (
              <Section title="Attachments">
                <ul>
                  {m.attachments.map((a, i) => (
                    <li key={a.url}>
                      <button type="button" onClick={() => void download.run(i, a.filename ?? `attachment-${i}`)}>
                        {a.filename ?? `attachment-${i}`}
                      </button>{' '}
                      <span class="muted">
                        {a.contentType}, {a.size.toLocaleString()} bytes
                      </span>
                    </li>
                  ))}
                </ul>
              </Section>
            ) : null}
            <Section title="Message">
              <button type="button" onClick={() => void download.run(null, `${m.id}.eml`)}>
                Download the raw message
              </button>
            </Section>
          </>
        )}
      </WhenLoaded>
    </>
  );
}
