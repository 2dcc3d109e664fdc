/**
 * Long-held slots (the explorer's receipt event streams) shared among clients so that a few
 * cannot keep the rest out: at most `perClient` per client and `total` in all. When every slot
 * is taken, a newcomer holding at least two fewer than the client holding the most takes that
 * client's oldest slot, whose holder is told to end. Clients are what `clientKey` makes of
 * their address. The slots live in this process (they are its open connections).
 */

export interface Slot {
  readonly client: string;
  /** Gives the slot back (once; later calls do nothing). */
  release(): void;
}

interface Held {
  client: string;
  openedAt: number;
  evict: () => void;
  released: boolean;
}

export type SlotAnswer = { slot: Slot } | { waitMs: number };

export class FairSlots {
  /** Each client's slots, oldest first. */
  private readonly byClient = new Map<string, Held[]>();
  private held = 0;

  /** `maxHoldMs`: how long a slot is held at most (its holder ends it then), which bounds a refused client's wait. */
  constructor(
    private readonly total: number,
    private readonly perClient: number,
    private readonly maxHoldMs: number,
  ) {}

  /** Slots held now, in all or by `client`. */
  count(client?: string): number {
    return client === undefined ? this.held : (this.byClient.get(client)?.length ?? 0);
  }

  /**
   * A slot for `client`, or how long it waits at most for one: until its own oldest slot has
   * been held its longest (at its own limit), or until the oldest slot of all has (when every
   * slot is taken and no client holds two more than it). `evict` is called when another client
   * takes this slot; the slot is then already given back.
   */
  open(client: string, evict: () => void, now = Date.now()): SlotAnswer {
    const mine = this.byClient.get(client) ?? [];
    if (mine.length >= this.perClient) return { waitMs: this.waitFor(mine[0]!, now) };
    if (this.held >= this.total) {
      const richest = this.mostHeld();
      if (!richest || richest.length < mine.length + 2) return { waitMs: this.waitFor(this.oldest(), now) };
      const taken = richest[0]!;
      this.remove(taken);
      taken.evict();
    }
    const held: Held = { client, openedAt: now, evict, released: false };
    mine.push(held);
    this.byClient.set(client, mine);
    this.held++;
    return { slot: { client, release: () => this.remove(held) } };
  }

  private remove(held: Held): void {
    if (held.released) return;
    held.released = true;
    this.held--;
    const list = this.byClient.get(held.client);
    if (!list) return;
    const at = list.indexOf(held);
    if (at >= 0) list.splice(at, 1);
    if (list.length === 0) this.byClient.delete(held.client);
  }

  private mostHeld(): Held[] | null {
    let most: Held[] | null = null;
    for (const list of this.byClient.values()) if (!most || list.length > most.length) most = list;
    return most;
  }

  private oldest(): Held | null {
    let oldest: Held | null = null;
    for (const list of this.byClient.values()) if (list[0] && (!oldest || list[0].openedAt < oldest.openedAt)) oldest = list[0];
    return oldest;
  }

  private waitFor(held: Held | null, now: number): number {
    return held ? Math.max(0, held.openedAt + this.maxHoldMs - now) : 0;
  }
}
