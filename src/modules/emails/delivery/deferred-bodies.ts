import type { ClaimedEmail } from './claim';

export interface RenderedBody {
  html: string;
  text: string | null;
}

/** Renders one email's body; throws TemplateError when its template does not render for its recipient. */
export type Render = () => Promise<RenderedBody>;

/**
 * The bodies of emails stored without one (a campaign's: its producer renders each as it is sent), for the
 * pump. The producer's module implements it; the worker's composition root hands it to the pump.
 */
export interface DeferredBodies {
  /** A render for each of the claimed emails stored without a body, by email id, read in one round trip for the claim. */
  prepare(emails: readonly ClaimedEmail[]): Promise<Map<string, Render>>;
  /** Takes back an email whose body did not render, and records why its recipient got none. */
  unrendered(email: ClaimedEmail, reason: string): Promise<void>;
}
