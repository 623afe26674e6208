import { useRef } from 'preact/hooks';
import { api, call } from '../../api/client';
import { usePoll } from '../../ui/use-load';
import { navigate } from '../../router';
import { CopyText } from '../../ui/actions';
import { WhenLoaded } from '../../ui/feedback';
import { PageHeader, Section } from '../../ui/layout';
import { dateTime } from '../../ui/format';
import { DeleteSection } from '../../ui/delete-section';
import { DomainStatus, RecordStatus, type DnsRecord } from './status';
import './domains.css';

const purposes: Record<DnsRecord['purpose'], string> = {
  DKIM: 'Required: proves you control the domain and signs your mail.',
  SPF: 'Recommended: names us as a sender for the domain.',
  DMARC: 'Recommended: tells receivers what to do with mail that fails the checks.',
  inbound:
    'For inbound mail: sends mail for the domain to Postwire (replace your other MX records only if Postwire should take all of it).',
};

/** A sender domain's records to publish, checked against DNS every few seconds until it is verified. */
export function DomainDetail({ params }: { params: Record<string, string> }) {
  const path = { id: params.id! };
  // The first answer is the last check, shown at once; every later one checks DNS now.
  const checks = useRef(0);
  const domain = usePoll(
    () =>
      call(checks.current++ === 0 ? api.GET('/domains/{id}', { params: { path } }) : api.GET('/domains/{id}/verify', { params: { path } })),
    5000,
    [params.id],
    (d) => !!d && !d.verified,
  );
  return (
    <>
      <PageHeader title={domain.data?.domain ?? 'Domain'} back={{ path: '/domains', label: 'All domains' }} />
      <WhenLoaded loaded={domain}>
        {(d) => (
          <>
            <Section title="Status">
              <p role="status" class="domain-status">
                <DomainStatus domain={d} />{' '}
                {d.verified
                  ? `Mail can be sent from any address @${d.domain}. Verified ${dateTime(d.verifiedAt)}.`
                  : 'Waiting for the DKIM record to appear in DNS: this page checks every few seconds.'}
              </p>
              <p class="muted">
                Last checked {dateTime(d.lastCheckedAt)}. After it is verified, the domain is still checked every 5 minutes.
              </p>
              <button type="button" onClick={() => void domain.reload()} disabled={domain.loading} aria-busy={domain.loading}>
                {domain.loading ? 'Checking…' : 'Check now'}
              </button>
            </Section>
            <Section title="DNS records">
              <p>Create these records at your DNS provider. Changes can take a while to be visible.</p>
              <ul class="records">
                {d.records.map((r) => (
                  <li key={r.purpose} class="card record">
                    <h3>
                      {r.purpose} <RecordStatus record={r} />
                    </h3>
                    <p class="muted">{purposes[r.purpose]}</p>
                    <dl>
                      <dt>Type</dt>
                      <dd>{r.type === 'MX' ? `MX (priority ${r.priority})` : r.type}</dd>
                      <dt>Name</dt>
                      <dd>
                        <CopyText label={`${r.purpose} record name`} value={r.name} />
                      </dd>
                      <dt>Value</dt>
                      <dd>
                        <CopyText label={`${r.purpose} record value`} value={r.value} />
                      </dd>
                    </dl>
                  </li>
                ))}
              </ul>
            </Section>
            <Section title="Inbound mail">
              <p>
                {d.inbound
                  ? `Mail to any address @${d.domain} is kept on the Inbound page${d.verified ? '' : ' once the domain is verified'}, and recorded on its sender's contact.`
                  : `Turn this on to receive mail at any address @${d.domain}: replies reach the contact, automations and webhooks.`}
              </p>
              <button
                type="button"
                onClick={() =>
                  void call(api.PATCH('/domains/{id}', { params: { path }, body: { inbound: !d.inbound } })).then(() => domain.reload())
                }
              >
                {d.inbound ? 'Turn inbound mail off' : 'Turn inbound mail on'}
              </button>
            </Section>
            <DeleteSection
              what="domain"
              name={d.domain}
              consequence="Mail from this domain is refused once it is deleted, including campaigns and templates that use it."
              remove={async () => {
                await call(api.DELETE('/domains/{id}', { params: { path } }));
                navigate('/domains');
              }}
            />
          </>
        )}
      </WhenLoaded>
    </>
  );
}
