import { api, call } from '../../api/client';
import type { Answer } from '../../api/types';
import { href } from '../../router';
import { useProject, useSession } from '../../session';
import { CopyText } from '../../ui/actions';
import { ErrorNote, Loading, Notice } from '../../ui/feedback';
import { ago, count, dateTime } from '../../ui/format';
import { Activity, ExternalLink, Icon, Inbox, Megaphone, Send, Webhook, Workflow } from '../../ui/icons';
import { PageHeader, Section } from '../../ui/layout';
import { Table } from '../../ui/lists';
import { useAction, useLoad } from '../../ui/use-load';
import './overview.css';

type Config = Answer<'/config', 'get'>;
type Development = NonNullable<Config['development']>;

function Step({ done, children }: { done: boolean; children: preact.ComponentChildren }) {
  return (
    <li class={done ? 'done' : ''}>
      <span class="step-mark" aria-hidden="true">
        {done ? '✓' : ''}
      </span>
      <span class="step-text">{children}</span>
      <span class="sr-only">{done ? ' (done)' : ' (to do)'}</span>
    </li>
  );
}

/** A link to a page of its own: a development tool beside the dashboard. */
const Outside = ({ url, children }: { url: string; children: preact.ComponentChildren }) => (
  <a class="button" href={url} target="_blank" rel="noreferrer">
    {children}
    <Icon icon={ExternalLink} />
  </a>
);

/**
 * What a newcomer does first on a development install (`npm start`): the sample contacts are the simulator
 * addresses, so a campaign to them shows real outcomes; the mail capture, the webhook capture and the Temporal
 * Web UI show what happened underneath.
 */
function StartHere({ dev, temporalUi }: { dev: Development; temporalUi: Config['temporalUi'] }) {
  return (
    <Section title="Start here" class="start-here">
      <p class="muted">
        This is a development install: nothing leaves this machine. Mail to the simulator addresses below gets a real outcome (delivered,
        bounced, opened…); mail to any other address lands in the mail capture.
      </p>
      <ol class="start-steps">
        <li>
          <Icon icon={Megaphone} size={20} />
          <div>
            <strong>Send a campaign to the sample contacts</strong>
            <p class="muted">The simulator addresses are subscribed contacts of this project: “All subscribed contacts” reaches them.</p>
          </div>
          <a class="button primary" href={href('/campaigns/new')}>
            New campaign
          </a>
        </li>
        <li>
          <Icon icon={Activity} size={20} />
          <div>
            <strong>Follow what happens</strong>
            <p class="muted">Each delivery, open, click, bounce and complaint, as it arrives; the campaign's page shows its figures.</p>
          </div>
          <a class="button" href={href('/activity')}>
            Activity
          </a>
        </li>
        {dev.mailCaptureUrl ? (
          <li>
            <Icon icon={Inbox} size={20} />
            <div>
              <strong>Read the mail as it was sent</strong>
              <p class="muted">The mail capture keeps every message to other addresses, with its DKIM check and its links.</p>
            </div>
            <Outside url={dev.mailCaptureUrl}>Mail capture</Outside>
          </li>
        ) : null}
        {temporalUi ? (
          <li>
            <Icon icon={Workflow} size={20} />
            <div>
              <strong>See the workflows underneath</strong>
              <p class="muted">Every campaign send and automation run is a durable Temporal workflow; the Web UI shows its history.</p>
            </div>
            <Outside url={`${temporalUi.url}/namespaces/${encodeURIComponent(temporalUi.namespace)}/workflows`}>Temporal Web UI</Outside>
          </li>
        ) : null}
        <li>
          <Icon icon={Webhook} size={20} />
          <div>
            <strong>Receive the events</strong>
            <p class="muted">
              {dev.webhookCaptureUrl
                ? 'The webhook capture receives them signed, and shows each request with its signature checked.'
                : 'Point a webhook endpoint at a receiver of yours.'}
            </p>
          </div>
          {dev.webhookCaptureUrl ? (
            <Outside url={dev.webhookCaptureUrl.replace(/\/hooks$/, '/')}>Webhook capture</Outside>
          ) : (
            <a class="button" href={href('/webhooks')}>
              Webhooks
            </a>
          )}
        </li>
      </ol>
      <h3>
        <Icon icon={Send} /> Simulator addresses
      </h3>
      <Table
        caption="Simulator addresses and what each does"
        rowKey={(r) => r.address}
        rows={dev.simulator}
        columns={[
          { title: 'Address', cell: (r) => <CopyText value={r.address} label={r.address} /> },
          { title: 'What happens', cell: (r) => r.outcome },
        ]}
      />
    </Section>
  );
}

/** Where a project stands: what to do first, and what it has sent. */
export function Overview() {
  const project = useProject();
  const { user } = useSession();
  const state = useLoad(() => call(api.GET('/projects/{id}/setup-state', { params: { path: { id: project.id } } })), [project.id]);
  const config = useLoad(() => call(api.GET('/config')), []);
  const resend = useAction(() => call(api.POST('/auth/request-verification')));
  const s = state.data;
  const dev = config.data?.development ?? null;
  const allDone = s ? s.hasVerifiedDomain && s.hasContacts && s.hasTrackedEvent && s.hasSentEmail : false;
  return (
    <>
      <PageHeader title={project.name} subtitle={dev ? 'Development project' : 'Overview'} />
      {!user.emailVerified ? (
        <Notice tone="warn" role="note">
          <p>Verify your email address with the link we sent to {user.email}: password resets and invitations go there.</p>
          <button type="button" disabled={resend.pending} onClick={() => void resend.run()}>
            Send the link again
          </button>
          <ErrorNote error={resend.error} />
        </Notice>
      ) : null}
      <ErrorNote error={state.error ?? config.error} />
      {!s || !config.data ? (
        <Loading />
      ) : (
        <>
          <dl class="stats overview-stats">
            <div>
              <dt>Contacts</dt>
              <dd>{count(s.contactCount)}</dd>
            </div>
            <div>
              <dt>Emails sent</dt>
              <dd>{count(s.emailsSent)}</dd>
            </div>
            <div>
              <dt>Last sent</dt>
              <dd title={dateTime(s.lastEmailSentAt)}>{s.lastEmailSentAt ? ago(s.lastEmailSentAt) : 'Nothing yet'}</dd>
            </div>
          </dl>
          {dev ? <StartHere dev={dev} temporalUi={config.data.temporalUi} /> : null}
          {!dev && !allDone ? (
            <Section title="Getting started">
              <ol class="checklist">
                <Step done={s.hasVerifiedDomain}>
                  <a href={href('/domains')}>Verify a sender domain</a>
                </Step>
                <Step done={s.hasContacts}>
                  <a href={href('/contacts')}>Add or import contacts</a>
                </Step>
                <Step done={s.hasTrackedEvent}>
                  Track an event with <a href={href('/keys')}>your public key</a>
                </Step>
                <Step done={s.hasSentEmail}>
                  <a href={href('/campaigns')}>Send an email</a>
                </Step>
              </ol>
            </Section>
          ) : null}
        </>
      )}
    </>
  );
}
