/**
 * What a send costs per email in its first half and in its second, by messages counted: a cost that grows with
 * the audience (a plan that changes as the tables fill, a read of everything sent so far) shows in one run as a
 * second half dearer than the first. A 1,000,000-recipient send once spent 0.32 ms of PostgreSQL per email
 * where a 100,000 one spent 0.17, and only a profile of each end told why (docs/contributors/campaigns.md).
 */
export class SendHalves {
  private start: { postgres: number; workers: number } | null = null;
  private middle: { messages: number; postgres: number; workers: number } | null = null;
  private taking = false;

  constructor(
    private readonly total: number,
    /** The workers' CPU milliseconds so far. */
    private readonly workersMs: () => number,
    /** PostgreSQL's backends' CPU milliseconds so far. */
    private readonly postgresMs: () => Promise<number>,
  ) {}

  async begin(): Promise<void> {
    this.start = { postgres: await this.postgresMs(), workers: this.workersMs() };
  }

  /** Called with the share of messages counted; takes the middle reading once half are. */
  async progress(share: number): Promise<void> {
    if (this.middle || this.taking || share < 0.5) return;
    this.taking = true;
    this.middle = { messages: Math.round(share * this.total), postgres: await this.postgresMs(), workers: this.workersMs() };
  }

  /** The line to print once the send is over. */
  async report(): Promise<string> {
    if (!this.start || !this.middle) return 'per email by half of the send: no middle reading';
    const end = { postgres: await this.postgresMs(), workers: this.workersMs() };
    const firstN = this.middle.messages;
    const secondN = this.total - firstN;
    const half = (key: 'postgres' | 'workers') =>
      `${((this.middle![key] - this.start![key]) / firstN).toFixed(3)} then ${((end[key] - this.middle![key]) / secondN).toFixed(3)} ms`;
    return `per email, the first half of the send (${firstN} messages) then the second: PostgreSQL ${half('postgres')}, workers ${half('workers')}`;
  }
}
