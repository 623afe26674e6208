import type { Answer } from '../../api/types';
import { count as formatCount, percentOf100 } from '../../ui/format';

export type CampaignStats = Answer<'/campaigns/{id}/stats', 'get'>;

function Figure({ label, count, of }: { label: string; count: number; of?: number }) {
  return (
    <div>
      <dt>{label}</dt>
      <dd>
        {formatCount(count)}
        {of === undefined ? null : <small> {percentOf100(of)}</small>}
      </dd>
    </div>
  );
}

/** The campaign's figures as `GET /campaigns/{id}/stats` reports them; rates only where the API gives one. */
export function Stats({ stats }: { stats: CampaignStats }) {
  return (
    <dl class="stats">
      <Figure label="Recipients" count={stats.totalRecipients} />
      <Figure label="Sent" count={stats.sentCount} />
      <Figure label="Delivered" count={stats.deliveredCount} of={stats.deliveryRate} />
      <Figure label="Opened" count={stats.openedCount} of={stats.openRate} />
      <Figure label="Clicked" count={stats.clickedCount} of={stats.clickRate} />
      <Figure label="Bounced" count={stats.bouncedCount} of={stats.bounceRate} />
      <Figure label="Complaints" count={stats.complainedCount} />
      <Figure label="Unsubscribed" count={stats.unsubscribedCount} />
      {stats.cappedCount > 0 ? <Figure label="Held back by the frequency cap" count={stats.cappedCount} /> : null}
    </dl>
  );
}
