import { Badge } from '../../ui/feedback';
import type { Endpoint } from './types';

/** Paused by a person, stopped by delivery after days of failures, or receiving. */
export function EndpointStatus({ endpoint }: { endpoint: Endpoint }) {
  if (endpoint.enabled) return <Badge tone="good">Enabled</Badge>;
  return endpoint.disabledReason ? <Badge tone="bad">Disabled by failures</Badge> : <Badge>Paused</Badge>;
}
