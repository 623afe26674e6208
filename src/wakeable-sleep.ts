/** A sleep that `wake()` ends early: for loops that wait for a time or for news, whichever comes first. */
export class WakeableSleep {
  private wakeUp: (() => void) | undefined;

  sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.wakeUp = undefined;
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.wakeUp = done;
    });
  }

  /** Ends the sleep under way, if any. */
  wake(): void {
    this.wakeUp?.();
  }
}
