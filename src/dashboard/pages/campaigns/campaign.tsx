import { useEffect, useState } from 'preact/hooks';
import { api, call } from '../../api/client';
import { href, navigate } from '../../router';
import { ConfirmButton } from '../../ui/actions';
import { ErrorNote, Notice, Progress, WhenLoaded } from '../../ui/feedback';
import { PageHeader, Section } from '../../ui/layout';
import { dateTime } from '../../ui/format';
import { useAction, useLoad, usePoll } from '../../ui/use-load';
import { CancelButton, SendPanel } from './send-panel';
import { AbTest } from './ab-test';
import { Recipients } from './recipients';
import { Stats } from './stats';
import { ClickedLinks } from './results';
import { CampaignStatusBadge, editable, type Campaign } from './status';
import { Replies } from '../inbound/replies';
import { LiquidText } from '../../ui/liquid';
import './campaigns.css';

const audienceOf = (c: Campaign) =>
  c.audienceType === 'ALL' ? 'All subscribed contacts' : c.audienceType === 'SEGMENT' ? 'A segment' : 'Contacts matching a condition';

function SegmentName({ id }: { id: string }) {
  const segment = useLoad(() => call(api.GET('/segments/{id}', { params: { path: { id } } })), [id]);
  if (segment.error) return <>: a segment that no longer exists</>;
  return segment.data ? <>: {segment.data.name}</> : null;
}

function Summary({ campaign: c }: { campaign: Campaign }) {
  const counted = editable(c);
  return (
    <dl class="summary">
      <dt>Subject</dt>
      <dd>
        <LiquidText text={c.subject} />
      </dd>
      <dt>From</dt>
      <dd>{c.fromName ? `${c.fromName} <${c.from}>` : c.from}</dd>
      <dt>Audience</dt>
      <dd>
        {audienceOf(c)}
        {c.segmentId ? <SegmentName id={c.segmentId} /> : null}
      </dd>
      <dt>{counted ? 'Reaches now' : 'Recipients'}</dt>
      <dd data-testid="audience-count">
        {c.totalRecipients.toLocaleString()} contact{c.totalRecipients === 1 ? '' : 's'}
      </dd>
      {c.scheduledFor ? (
        <>
          <dt>Scheduled for</dt>
          <dd>{dateTime(c.scheduledFor)}</dd>
        </>
      ) : null}
      {c.sentAt ? (
        <>
          <dt>Finished</dt>
          <dd>{dateTime(c.sentAt)}</dd>
        </>
      ) : null}
    </dl>
  );
}

/** One campaign: what it is and whom it reaches, then sending it, its progress while sending, and its figures. */
export function CampaignPage({ params }: { params: Record<string, string> }) {
  const path = { id: params.id! };
  const [message, setMessage] = useState<string | null>(null);
  const loaded = usePoll(
    async () => {
      const campaign = await call(api.GET('/campaigns/{id}', { params: { path } }));
      const stats =
        campaign.status === 'DRAFT' || campaign.status === 'SCHEDULED'
          ? null
          : await call(api.GET('/campaigns/{id}/stats', { params: { path } }));
      return { campaign, stats };
    },
    2000,
    [params.id],
    (d) => d?.campaign.status === 'SENDING',
  );
  const done = async (text: string) => {
    setMessage(text);
    await loaded.reload();
  };
  const duplicate = useAction(async () => {
    const copy = await call(api.POST('/campaigns/{id}/duplicate', { params: { path } }));
    navigate(`/campaigns/${copy.id}`);
  });
  const remove = useAction(async () => {
    await call(api.DELETE('/campaigns/{id}', { params: { path } }));
    navigate('/campaigns');
  });
  const shown = loaded.data?.campaign;
  // "Being sent" is the send's answer; once the campaign is sent the figures say the rest.
  useEffect(() => {
    if (shown?.status === 'SENT') setMessage(null);
  }, [shown?.status]);
  return (
    <>
      <PageHeader title={shown?.name ?? 'Campaign'}>
        {shown ? <CampaignStatusBadge status={shown.status} /> : null}
        {shown && editable(shown) ? (
          <a class="button" href={href(`/campaigns/${shown.id}/edit`)}>
            Edit
          </a>
        ) : null}
        {shown ? (
          <button type="button" onClick={() => void duplicate.run()} disabled={duplicate.pending}>
            Duplicate
          </button>
        ) : null}
        {shown && shown.status !== 'SCHEDULED' && shown.status !== 'SENDING' ? (
          <ConfirmButton label="Delete" confirm={`Delete ${shown.name}?`} danger onConfirm={() => remove.run()} disabled={remove.pending} />
        ) : null}
      </PageHeader>
      {message ? (
        <Notice tone="good" role="status">
          {message}
        </Notice>
      ) : null}
      <ErrorNote error={duplicate.error ?? remove.error} />
      <WhenLoaded loaded={loaded}>
        {({ campaign: c, stats }) => (
          <>
            <Section title="Campaign">
              <Summary campaign={c} />
            </Section>
            {c.status === 'SENDING' ? (
              <Section title="Sending">
                <Progress label="Sent" value={stats?.sentCount ?? c.sentCount} max={c.totalRecipients} />
                <CancelButton campaign={c} onDone={done} />
              </Section>
            ) : null}
            {c.status === 'SCHEDULED' ? (
              <Section title="Scheduled">
                <p>Sends on {dateTime(c.scheduledFor)}.</p>
                <CancelButton campaign={c} onDone={done} />
              </Section>
            ) : null}
            {editable(c) ? <SendPanel campaign={c} onDone={done} /> : null}
            {stats ? (
              <Section title="Figures">
                <Stats stats={stats} />
                {c.status === 'SENDING' ? null : (
                  <p>
                    <button type="button" onClick={() => void loaded.reload()} disabled={loaded.loading} aria-busy={loaded.loading}>
                      {loaded.loading ? 'Refreshing…' : 'Refresh figures'}
                    </button>{' '}
                    <span class="muted">Opens, clicks, bounces and complaints keep arriving after sending.</span>
                  </p>
                )}
              </Section>
            ) : null}
            {c.abTest && stats ? (
              <Section title="A/B test">
                <AbTest campaign={c} version={JSON.stringify(stats)} onDone={done} />
              </Section>
            ) : null}
            {stats ? (
              <>
                <Section title="Recipients">
                  <Recipients campaignId={c.id} version={JSON.stringify(stats)} />
                </Section>
                <ClickedLinks campaignId={c.id} version={JSON.stringify(stats)} />
              </>
            ) : null}
            {c.status === 'SENT' || c.status === 'SENDING' ? (
              <Replies title="Replies" filter={{ campaignId: c.id }} empty="No reply yet (replies reach a domain with inbound mail on)." />
            ) : null}
          </>
        )}
      </WhenLoaded>
    </>
  );
}
