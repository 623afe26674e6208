import { toDataPatch, type DataInput } from '../contacts/custom-fields';

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
  requestData?: DataInput;
}

export type TemplateScope = Record<string, unknown>;

/**
 * The contact's data as this request sees it: the request's `data` applied with the custom-field rules, plus
 * its `{ value, persistent: false }` values. The result is the same whether or not the caller already saved
 * the request's data to the contact.
 */
function effectiveData(stored: Record<string, unknown>, request: DataInput): Record<string, unknown> {
  const patch = toDataPatch(request);
  const data = { ...stored, ...patch.set, ...patch.variables };
  for (const key of patch.unset) delete data[key];
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
