import type { AutomationEvent } from './ids';

/** Events older than this many are dropped: an execution only ever needs the latest of each name. */
const CAPACITY = 100;

/**
 * The contact's events signalled to the execution. Delivery is at least once and may come before the wait
 * that needs it, so events are kept (deduplicated by id) until a wait takes them; each is taken at most once.
 */
export class Inbox {
  private readonly events: AutomationEvent[] = [];
  private readonly seen = new Set<string>();
  private readonly used: string[] = [];

  add(event: AutomationEvent): void {
    if (this.seen.has(event.id)) return;
    this.seen.add(event.id);
    this.events.push(event);
    if (this.events.length > CAPACITY) this.events.shift();
  }

  /** The earliest unused event named `name` tracked at or after `since`, without taking it. */
  find(name: string, since: string): AutomationEvent | undefined {
    const at = Date.parse(since);
    return this.events
      .filter((e) => e.name === name && Date.parse(e.createdAt) >= at && !this.used.includes(e.id))
      .sort((a, b) => Date.parse(a.createdAt) - Date.parse(b.createdAt))[0];
  }

  take(event: AutomationEvent): void {
    this.add(event);
    this.used.push(event.id);
  }

  /** Ids of events already taken, so that a look-back in the database skips them. */
  usedIds(): string[] {
    return [...this.used];
  }
}
