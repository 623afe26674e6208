import type { Reading } from './platform-usage';

/**
 * What a send costs per email in its first half and in its second, by messages counted: a cost that grows with
 * the audience (a plan that changes as the tables fill, a read of everything sent so far) shows in one run as a
 * second half dearer than the first. A 1,000,000-recipient send once spent 0.32 ms of PostgreSQL per email
 * where a 100,000 one spent 0.17, and only a profile of each end told why (docs/contributors/campaigns.md).
 */
export class SendHalves {
  private middle: { messages: number; cpuMs: Reading } | null = null;

  constructor(
    private readonly total: number,
    /** CPU milliseconds since the send began, per part (PlatformUsage.elapsed). */
    private readonly elapsed: () => Reading,
  ) {}

  /** Called with the share of messages counted; takes the middle reading once half are. */
  progress(share: number): void {
    if (this.middle || share < 0.5) return;
    this.middle = { messages: Math.round(share * this.total), cpuMs: this.elapsed() };
  }

  /** The line to print once the send is over. */
  report(): string {
    if (!this.middle) return 'per email by half of the send: no middle reading';
    const { messages, cpuMs: middle } = this.middle;
    const end = this.elapsed();
    const half = (part: 'postgres' | 'workers') =>
      `${(middle[part] / messages).toFixed(3)} then ${((end[part] - middle[part]) / (this.total - messages)).toFixed(3)} ms`;
    return `per email, the first half of the send (${messages} messages) then the second: PostgreSQL ${half('postgres')}, workers ${half('workers')}`;
  }
}
