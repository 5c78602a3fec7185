/**
 * An immutable list that shares its storage with the lists it grew from, so that a view of a run
 * and the view one event later hold one log, not two copies of it.
 *
 *   a = List.of([x, y])          store [x, y]        a.length 2
 *   b = a.put(2, z)              store [x, y, z]     b.length 3   (pushed in place: a is unchanged,
 *   c = a.put(2, w)              store' [x, y, w]    c.length 3    it only ever reads 2 items)
 *
 * Adding to the newest list of a storage is a push (constant time); adding to an older one (a
 * step-through that went back and reduces forward again) copies its items first, once. Items
 * below a list's length are never changed, so every list stays as it was made.
 */
export class List<T> {
  readonly #store: T[];
  readonly length: number;

  private constructor(store: T[], length: number) {
    this.#store = store;
    this.length = length;
  }

  /** A list of a copy of `items`. */
  static of<T>(items: readonly T[] = []): List<T> {
    copied.items += items.length;
    return new List(items.slice(), items.length);
  }

  /** The item at `index`, or undefined. */
  at(index: number): T | undefined {
    return index >= 0 && index < this.length ? this.#store[index] : undefined;
  }

  /** The list with `item` at `index` and nothing after it (a message array is rewritten so). */
  put(index: number, item: T): List<T> {
    let store = this.#store;
    if (index !== this.length || store.length !== this.length) {
      store = store.slice(0, Math.min(index, this.length));
      copied.items += store.length;
    }
    store[index] = item;
    return new List(store, index + 1);
  }

  /** The list with `item` added at its end. */
  push(item: T): List<T> {
    return this.put(this.length, item);
  }

  /** Whether both lists hold the same items (one storage, one length). */
  same(other: List<T>): boolean {
    return this.#store === other.#store && this.length === other.length;
  }

  /** The items as a new array (for the screen). */
  toArray(): T[] {
    copied.items += this.length;
    return this.#store.slice(0, this.length);
  }
}

/**
 * How many items were copied from one array into another (lists and the views made of them): the
 * work of reducing a record, counted so that a test can tell linear from quadratic without a clock.
 */
export const copied = { items: 0 };
