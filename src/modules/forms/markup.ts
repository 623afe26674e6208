import { html, join, page, raw, type Html } from '../pages/html';
import type { FieldValue, FormField } from './fields';

/** The honeypot: an input people never see or fill, and form-filling bots do (docs/consent.md "The public endpoint"). */
export const HONEYPOT_FIELD = 'website';
/** The hidden input that carries the start token. */
export const START_FIELD = '_pw_started';

export interface FormLook {
  id: string;
  title: string;
  fields: FormField[];
  submitLabel: string;
}

export interface MarkupOptions {
  /** Where the form posts: the public endpoint. */
  action: string;
  /** The start token; empty in the snippet, whose script fills it in. */
  token: string;
  /** What was typed, and each field's error, when the form comes back. */
  values?: Record<string, FieldValue>;
}

// Off-screen rather than display:none, which some bots skip; as an inline style so the snippet needs no stylesheet.
const TRAP_STYLE = 'position:absolute;left:-10000px;width:1px;height:1px;overflow:hidden';

const inputType = (field: FormField) => (field.type === 'checkbox' ? 'checkbox' : field.type);

function fieldMarkup(form: FormLook, field: FormField, index: number, value: FieldValue | undefined): Html {
  const id = `pw-${form.id.slice(0, 8)}-${index}`;
  const error = value?.error ?? null;
  const described = error ? html` aria-invalid="true" aria-describedby="${id}-error"` : html``;
  const required = field.required ? raw(' required') : html``;
  const message = error ? html`<p class="error" id="${id}-error">${error}</p>` : html``;
  if (field.type === 'checkbox') {
    const checked = value && value.raw !== '' ? raw(' checked') : html``;
    return html`<label class="choice" for="${id}"><input id="${id}" type="checkbox" name="${field.key}" value="on"${checked}${required}${described}> ${field.label}</label>${message}`;
  }
  const autocomplete = field.key === 'email' ? html` autocomplete="email"` : html``;
  return html`<label for="${id}">${field.label}</label><input id="${id}" type="${inputType(field)}" name="${field.key}" value="${value?.raw ?? ''}"${autocomplete}${required}${described}>${message}`;
}

/** The form itself: the same markup on the hosted page and in the snippet. */
export function formMarkup(form: FormLook, options: MarkupOptions): Html {
  const trapId = `pw-${form.id.slice(0, 8)}-${HONEYPOT_FIELD}`;
  return html`<form method="post" action="${options.action}" class="block postwire-form" data-postwire-form="${form.id}">
${join(form.fields.map((field, i) => fieldMarkup(form, field, i, options.values?.[field.key])))}
<div style="${TRAP_STYLE}" aria-hidden="true"><label for="${trapId}">Leave this field empty</label><input id="${trapId}" type="text" name="${HONEYPOT_FIELD}" value="" tabindex="-1" autocomplete="off"></div>
<input type="hidden" name="${START_FIELD}" value="${options.token}">
<p class="actions"><button type="submit">${form.submitLabel}</button></p>
</form>`;
}

/** The hosted page: the form, and a notice above it when it comes back. */
export function formPage(form: FormLook, options: MarkupOptions & { notice?: string | null }): string {
  const notice = options.notice ? html`<p class="error" role="alert">${options.notice}</p>` : html``;
  return page(form.title, html`${notice}${formMarkup(form, options)}`);
}

/** The thank-you page: the form's own text, its paragraphs kept. */
export function thanksPage(text: string): string {
  const paragraphs = text.split(/\n\s*\n/).map((p) => html`<p>${p.trim()}</p>`);
  return page('Thank you', join(paragraphs));
}

export const refusedPage = () =>
  page(
    'Signup refused',
    html`<p>This submission looks automated, so it was not taken. If you are a person, please reload the form and try again.</p>`,
  );

export const tooManyPage = (minutes: number) =>
  page(
    'Too many signups',
    html`<p>Too many signups came from here or for this address. Please try again in ${String(minutes)} ${minutes === 1 ? 'minute' : 'minutes'}.</p>`,
  );

export const missingFormPage = () =>
  page('This form does not exist', html`<p>The signup form was removed, or the address is incomplete.</p>`);
