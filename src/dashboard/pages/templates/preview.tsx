import { useState } from 'preact/hooks';
import { api, call } from '../../api/client';
import { ContactPicker, type ChosenContact } from '../../ui/contact-picker';
import { ErrorNote } from '../../ui/feedback';
import { Section } from '../../ui/layout';
import { useDebounced } from '../../ui/use-debounced';
import { useLoad } from '../../ui/use-load';
import './preview.css';

/**
 * The email as the chosen contact would get it, rendered by the API (POST /templates/preview) as the text
 * changes, and the variables it reads. The HTML is shown in a sandboxed frame with no rights at all (no
 * scripts, no forms, its own origin), never in the app's own document.
 */
export function TemplatePreview({ subject, body, empty }: { subject: string; body: string; empty?: string }) {
  const [contact, setContact] = useState<ChosenContact | null>(null);
  // A string, so that an unchanged text is an unchanged input.
  const settled = useDebounced(JSON.stringify({ subject, body, contactId: contact?.id }));
  const content = JSON.parse(settled) as { subject: string; body: string; contactId?: string };
  const ready = content.subject.trim() !== '' && content.body.trim() !== '';
  const preview = useLoad(async () => (ready ? call(api.POST('/templates/preview', { body: content })) : null), [settled]);
  const shown = preview.data;
  const who = contact ? contact.email : 'no contact (variables unset)';
  return (
    <Section title="Preview">
      <ContactPicker label="Preview for" noneLabel="No contact (variables unset)" chosen={contact} onChoose={setContact} />
      <ErrorNote error={preview.error} />
      {shown ? (
        <div class="template-preview" aria-busy={preview.loading}>
          <p class="preview-subject">
            <span class="muted">Subject: </span>
            <strong data-testid="preview-subject">{shown.subject}</strong>
          </p>
          <iframe class="preview-frame" title={`Email as ${who} gets it`} sandbox="" srcdoc={shown.html} />
          <h3>Variables used</h3>
          {shown.variables.length === 0 ? (
            <p class="muted">This template uses no variables.</p>
          ) : (
            <ul class="variables" aria-label="Variables used">
              {shown.variables.map((v) => (
                <li key={v}>
                  <code>{v}</code>
                </li>
              ))}
            </ul>
          )}
        </div>
      ) : ready ? null : (
        <p class="muted">{empty ?? 'Write a subject and a body to see them rendered.'}</p>
      )}
    </Section>
  );
}
