import { api, call } from '../../api/client';
import { href } from '../../router';
import { Empty, ErrorNote, Loading } from '../../ui/feedback';
import { Section } from '../../ui/layout';
import { useLoad } from '../../ui/use-load';

/** The campaigns, workflows and signup forms that reference a template. */
export function TemplateUsage({ id }: { id: string }) {
  const usage = useLoad(() => call(api.GET('/templates/{id}/usage', { params: { path: { id } } })), [id]);
  return (
    <Section title="Used by">
      <ErrorNote error={usage.error} />
      {!usage.data ? (
        <Loading />
      ) : usage.data.campaigns.length + usage.data.workflows.length + usage.data.forms.length === 0 ? (
        <Empty>No campaign or automation uses this template.</Empty>
      ) : (
        <div class="grid">
          <div>
            <h3>Campaigns ({usage.data.campaigns.length})</h3>
            <ul>
              {usage.data.campaigns.map((c) => (
                <li key={c.id}>
                  <a href={href(`/campaigns/${c.id}`)}>{c.name}</a>
                </li>
              ))}
            </ul>
          </div>
          <div>
            <h3>Automations ({usage.data.workflows.length})</h3>
            <ul>
              {usage.data.workflows.map((w) => (
                <li key={w.id}>
                  <a href={href(`/automations/${w.id}`)}>{w.name}</a>
                </li>
              ))}
            </ul>
          </div>
          {usage.data.forms.length > 0 ? (
            <div>
              <h3>Signup forms ({usage.data.forms.length})</h3>
              <ul>
                {usage.data.forms.map((f) => (
                  <li key={f.id}>
                    <a href={href(`/forms/${f.id}`)}>{f.name}</a>
                  </li>
                ))}
              </ul>
            </div>
          ) : null}
        </div>
      )}
    </Section>
  );
}
