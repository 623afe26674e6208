import { useEffect, useRef } from 'preact/hooks';
import { api, call } from '../../api/client';
import { href } from '../../router';
import { Empty, WhenLoaded } from '../../ui/feedback';
import { Section } from '../../ui/layout';
import { useLoad } from '../../ui/use-load';
import { fieldName } from './field-name';

/** A field's most frequent values and what refers to it, before one deletes it. */
export function FieldDetails({ field }: { field: string }) {
  const path = { field };
  const values = useLoad(() => call(api.GET('/contacts/fields/{field}/values', { params: { path } })), [field]);
  const usage = useLoad(() => call(api.GET('/contacts/fields/{field}/usage', { params: { path } })), [field]);
  const shown = useRef<HTMLDivElement>(null);
  // Opened from a row of a long table: bring it into view.
  useEffect(() => shown.current?.scrollIntoView({ block: 'nearest' }), []);
  return (
    <div ref={shown}>
      <Section title={`Field ${fieldName(field)}`}>
        <h3>Most frequent values</h3>
        <WhenLoaded loaded={values}>
          {({ values: frequent }) =>
            frequent.length === 0 ? (
              <Empty>No contact has a value yet.</Empty>
            ) : (
              <ul>
                {frequent.map((v) => (
                  <li key={JSON.stringify(v.value)}>
                    <code>{JSON.stringify(v.value)}</code>: {v.count.toLocaleString()}
                  </li>
                ))}
              </ul>
            )
          }
        </WhenLoaded>
        <h3>Used by</h3>
        <WhenLoaded loaded={usage}>
          {(used) => {
            const users = [
              ...used.segments.map((s) => ({ ...s, area: 'Segment', to: `/segments/${s.id}` })),
              ...used.campaigns.map((s) => ({ ...s, area: 'Campaign', to: `/campaigns/${s.id}` })),
              ...used.workflows.map((s) => ({ ...s, area: 'Automation', to: `/automations/${s.id}` })),
            ];
            return users.length === 0 ? (
              <Empty>No segment, campaign or automation refers to it.</Empty>
            ) : (
              <ul>
                {users.map((u) => (
                  <li key={u.id}>
                    {u.area}: <a href={href(u.to)}>{u.name}</a>
                  </li>
                ))}
              </ul>
            );
          }}
        </WhenLoaded>
      </Section>
    </div>
  );
}
