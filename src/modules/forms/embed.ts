import { html } from '../pages/html';
import { formMarkup, START_FIELD, type FormLook } from './markup';

/** The public addresses of a form: its hosted page (also where it posts) and the script of its snippet. */
export const formUrl = (publicUrl: string, formId: string) => new URL(`/f/${formId}`, publicUrl).toString();
export const embedScriptUrl = (publicUrl: string, formId: string) => new URL(`/f/${formId}/embed.js`, publicUrl).toString();

/**
 * The snippet a project pastes into its own pages: the form's markup posting to the public endpoint, and a
 * script that fills in the start token when the page is shown (docs/consent.md "Signup forms"). No key: the
 * endpoint knows the project by the form.
 */
export function embedHtml(publicUrl: string, form: FormLook): string {
  return html`<!-- Postwire signup form. The script records when the form was shown, which the bot check needs. -->
${formMarkup(form, { action: formUrl(publicUrl, form.id), token: '' })}
<script src="${embedScriptUrl(publicUrl, form.id)}" async></script>
`.html;
}

/** The snippet's script: puts a fresh start token into every copy of the form on the page. */
export function embedScript(formId: string, token: string): string {
  const selector = `form[data-postwire-form="${formId}"] input[name="${START_FIELD}"]`;
  return `(function(){var t=${JSON.stringify(token)};document.querySelectorAll(${JSON.stringify(selector)}).forEach(function(i){i.value=t;});})();\n`;
}
