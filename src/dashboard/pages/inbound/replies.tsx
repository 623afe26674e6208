import { api, call } from '../../api/client';
import { href } from '../../router';
import { WhenLoaded } from '../../ui/feedback';
import { Section } from '../../ui/layout';
import { dateTime } from '../../ui/format';
import { useLoad } from '../../ui/use-load';

/** The newest inbound mail of a contact (its sender) or replying to a campaign, with a link to each message. */
export function Replies({
  title,
  filter,
  empty,
}: {
  title: string;
  filter: { contactId: string } | { campaignId: string };
  empty: string;
}) {
  const key = 'contactId' in filter ? filter.contactId : filter.campaignId;
  const page = useLoad(() => call(api.GET('/inbound', { params: { query: { ...filter, limit: 10 } } })), [key]);
  return (
    <Section title={title}>
      <WhenLoaded loaded={page}>
        {({ data: rows, total }) =>
          rows.length === 0 ? (
            <p class="muted">{empty}</p>
          ) : (
            <>
              <ul>
                {rows.map((m) => (
                  <li key={m.id}>
                    <a href={href(`/inbound/${m.id}`)}>{m.subject || '(no subject)'}</a>{' '}
                    <span class="muted">
                      from {m.from.email}, {dateTime(m.receivedAt)}
                    </span>
                  </li>
                ))}
              </ul>
              {total > rows.length ? <p class="muted">{total.toLocaleString()} in all.</p> : null}
            </>
          )
        }
      </WhenLoaded>
    </Section>
  );
}
