/** A first-come, first-served lock: transactions take it for their length, statements in passing. */
export class Turns {
  private tail: Promise<void> = Promise.resolve();
  /** Takers holding or waiting for the lock. */
  private takers = 0;

  /** Whether nobody holds or waits for the lock: a statement in passing may go at once. */
  get free(): boolean {
    return this.takers === 0;
  }

  acquire(): Promise<() => void> {
    this.takers += 1;
    let release!: () => void;
    const turn = new Promise<void>((resolve) => (release = resolve));
    const before = this.tail;
    this.tail = before.then(() => turn);
    let released = false;
    return before.then(() => () => {
      if (released) return;
      released = true;
      this.takers -= 1;
      release();
    });
  }
}
