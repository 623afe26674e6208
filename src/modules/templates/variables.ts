/** What every sender knows about the recipient when it renders a template. */
export interface RecipientContact {
  id: string;
  email: string;
  subscribed: boolean;
  /** The contact's stored custom fields. */
  data: Record<string, unknown>;
}

/** Links to the subscription pages the service serves for this recipient. */
export interface SubscriptionLinks {
  unsubscribeUrl: string;
  subscribeUrl: string;
  manageUrl: string;
}

export interface VariablesInput {
  contact: RecipientContact;
  links: SubscriptionLinks;
  /** The request's `data` object (/v1/send), including `{ value, persistent: false }` values. */
  requestData?: Record<string, unknown>;
}

export type TemplateScope = Record<string, unknown>;

/** Custom-field rule 6: these keys never come from `data`; the service supplies them. */
const RESERVED_KEYS = new Set(['id', 'plunk_id', 'plunk_email', 'email', 'unsubscribeUrl', 'subscribeUrl', 'manageUrl']);

const isWrappedValue = (v: unknown): v is { value: unknown; persistent: boolean } =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && 'value' in v && typeof (v as { persistent?: unknown }).persistent === 'boolean' &&
  Object.keys(v).length === 2;

/**
 * The contact's data as this request sees it: the custom-field rules applied on top of the stored data, so
 * the result is the same whether or not the caller already saved the request's data to the contact.
 */
function effectiveData(stored: Record<string, unknown>, request: Record<string, unknown>): Record<string, unknown> {
  const data = { ...stored };
  for (const [key, value] of Object.entries(request)) {
    if (RESERVED_KEYS.has(key) || value === '') continue;
    if (value === null) delete data[key];
    else data[key] = isWrappedValue(value) ? value.value : value;
  }
  return data;
}

/**
 * The variables a template sees. Every data key is a top-level variable (`{{ plan }}`, `{{ profile.tier }}`),
 * and `data` holds them all for keys Liquid cannot name bare (`{{ data["first name"] }}`). The service's own
 * names win over data keys of the same name: `email`, `contact`, `data` and the three subscription links.
 */
export function templateVariables({ contact, links, requestData = {} }: VariablesInput): TemplateScope {
  const data = effectiveData(contact.data, requestData);
  return {
    ...data,
    data,
    email: contact.email,
    contact: { id: contact.id, email: contact.email, subscribed: contact.subscribed, data },
    unsubscribeUrl: links.unsubscribeUrl,
    subscribeUrl: links.subscribeUrl,
    manageUrl: links.manageUrl,
  };
}
