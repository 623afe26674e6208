import { api, call } from '../../api/client';
import { useProject } from '../../session';
import { ErrorNote } from '../../ui/feedback';
import { Section } from '../../ui/layout';
import { useAction } from '../../ui/use-load';

/** The provider answers with a page to go to; the API's schema does not describe the body, so only its `url` is read. */
const urlOf = (body: unknown) => (body && typeof body === 'object' && 'url' in body && typeof body.url === 'string' ? body.url : null);

/**
 * Plan and payment, at the provider: shown only when the deployment has a billing provider (`GET /config`),
 * since without one these endpoints answer BILLING_DISABLED. Any member may open them (docs/roles.md).
 */
export function BillingProvider() {
  const project = useProject();
  const path = { id: project.id };
  const open = useAction(async (action: 'checkout' | 'billing-portal') => {
    const body: unknown =
      action === 'checkout'
        ? await call(api.POST('/users/@me/projects/{id}/checkout', { params: { path } }))
        : await call(api.POST('/users/@me/projects/{id}/billing-portal', { params: { path } }));
    const url = urlOf(body);
    if (url) location.assign(url);
  });
  return (
    <Section title="Plan and payment">
      <div class="actions">
        <button type="button" class="primary" disabled={open.pending} onClick={() => void open.run('checkout')}>
          Choose a plan
        </button>
        <button type="button" disabled={open.pending} onClick={() => void open.run('billing-portal')}>
          Payment and invoices
        </button>
      </div>
      <ErrorNote error={open.error} />
    </Section>
  );
}
