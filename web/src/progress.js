// @ts-check
// Saved quiz progress in localStorage, as the Atlas keeps it: each saved answer is keyed by
// the SHA-256 of the question, its options and its answer (for generated checks: the question,
// the options or unit, and the engine's expected value). When any of those change, the key
// changes and the old answer is no longer found; entries for a published check's slot that no
// longer match are deleted, and the store keeps only the most recent answers.
//
// The store is shared: every element on the page and every tab of the origin reads and writes
// the same localStorage key. So nothing is cached across operations: each save, slot claim or
// read takes the stored progress as it is now, changes one answer and writes it back — two
// elements or tabs answering different questions keep each other's answers (before, each
// wrote back the copy it had read at load, and the last writer won). A change made by another
// element of the page (an in-page notice) or another tab (the window's `storage` event) is
// reported through `onExternalChange`, so shown answers follow it.
//
// Stored progress is not trusted: another writer, an old format or a hand edit may have left
// anything under the key. It is read into fresh objects, entry by entry; what is not an answer
// (`{answer: finite number, correct: boolean, savedAt: finite number}`) or a slot (a string) is
// discarded, once, with `onDiscarded(reason)`, and the next write replaces it.
//
// Storage is best effort: without Web Crypto (an insecure origin) or localStorage (disabled,
// full), answers are still checked, just not remembered. A host that keeps progress itself
// (the element's storage="none") gets a store that never touches localStorage: it starts from
// the answers the host hands back (`replaceAnswers`) and reports each new one (`onSave`).

const MAX_ENTRIES = 200;

/** One saved answer. @typedef {{answer: number, correct: boolean, savedAt: number}} SavedEntry */
/**
 * The stored progress: answers by question key, and each published check's slot's current key.
 * @typedef {{entries: Record<string, SavedEntry>, slots: Record<string, string>}} Progress
 */

/**
 * Hex SHA-256 of `text`, or null where Web Crypto is unavailable.
 * @param {string} text
 * @returns {Promise<string | null>}
 */
export async function sha256Hex(text) {
  if (!globalThis.crypto?.subtle) return null;
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

/**
 * The key material of a question: one canonical JSON text.
 * @param {object} parts
 */
export function questionKeyText(parts) {
  return JSON.stringify(parts);
}

export class ProgressStore {
  #storageKey;
  #persist;
  #onSave;
  #onUnavailable;
  #onDiscarded;
  #unavailable = false;
  #discardReported = false;
  // The progress as last read or written: all of it under persist=false or once storage has
  // failed, otherwise only what the last operation saw.
  #memory = emptyProgress();
  /** @type {((event: StorageEvent) => void) | null} */
  #onStorage = null;
  /** @type {((event: Event) => void) | null} */
  #onPageChange = null;

  /**
   * @param {string} storageKey  the localStorage key
   * @param {object} [options]
   * @param {boolean} [options.persist=true]  false: memory only, localStorage is never touched
   * @param {(key: string, answer: number, correct: boolean) => void} [options.onSave]  after a
   *        new or changed answer (not when a restored answer is saved again unchanged)
   * @param {() => void} [options.onUnavailable]  once, when it turns out that answers cannot be
   *        remembered here (no Web Crypto for the keys, localStorage missing, refused or full)
   * @param {(reason: string) => void} [options.onDiscarded]  once, when stored progress that is
   *        not progress was discarded
   * @param {(() => void) | null} [options.onExternalChange]  another element or tab changed the stored
   *        progress (call close() to stop listening)
   */
  constructor(
    storageKey,
    { persist = true, onSave = () => {}, onUnavailable = () => {}, onDiscarded = () => {}, onExternalChange = null } = {},
  ) {
    this.#storageKey = storageKey;
    this.#persist = persist;
    this.#onSave = onSave;
    this.#onUnavailable = onUnavailable;
    this.#onDiscarded = onDiscarded;
    // Without Web Crypto no answer has a key (sha256Hex), so none can be saved.
    if (persist && !globalThis.crypto?.subtle) this.#unavailable = true;
    if (persist && onExternalChange) {
      this.#onPageChange = (event) => {
        const { detail } = /** @type {CustomEvent<{key: string, store: ProgressStore}>} */ (event);
        if (detail.key === storageKey && detail.store !== this) onExternalChange();
      };
      pageChanges.addEventListener('change', this.#onPageChange);
      if (typeof window !== 'undefined') {
        // Another tab: `key` is null when it cleared the whole storage.
        this.#onStorage = (event) => {
          if (event.key === storageKey || event.key === null) onExternalChange();
        };
        window.addEventListener('storage', this.#onStorage);
      }
    }
  }

  /** Stops listening for other elements' and tabs' changes (the element was removed). */
  close() {
    if (this.#onPageChange) pageChanges.removeEventListener('change', this.#onPageChange);
    if (this.#onStorage) window.removeEventListener('storage', this.#onStorage);
    this.#onPageChange = null;
    this.#onStorage = null;
  }

  /**
   * Whether saved answers outlive the page: false under persist=false, and false once storage
   * has failed (the first read or write finds out; before that it is assumed to work).
   */
  get remembers() {
    return this.#persist && !this.#unavailable;
  }

  #storageFailed() {
    if (this.#unavailable) return;
    this.#unavailable = true;
    this.#onUnavailable();
  }

  /** The progress as stored now (a fresh object), or the memory copy where nothing is stored. */
  /** @returns {Progress} */
  #current() {
    if (!this.remembers) return this.#memory;
    let text;
    try {
      // Reading the property itself throws where storage is disabled (a SecurityError).
      if (!globalThis.localStorage) throw new Error('no localStorage');
      text = globalThis.localStorage.getItem(this.#storageKey);
    } catch {
      this.#storageFailed();
      return this.#memory;
    }
    if (text === null) return emptyProgress();
    const { progress, problem } = readProgress(text);
    if (problem && !this.#discardReported) {
      this.#discardReported = true;
      this.#onDiscarded(problem);
    }
    return progress;
  }

  /**
   * Applies `change` to the progress as it is now, keeps the newest MAX_ENTRIES, stores it.
   * @param {(data: Progress) => boolean | void} change
   */
  #update(change) {
    const data = this.#current();
    if (change(data) === false) return;
    const keys = Object.keys(data.entries);
    if (keys.length > MAX_ENTRIES) {
      keys
        .sort((a, b) => data.entries[a].savedAt - data.entries[b].savedAt)
        .slice(0, keys.length - MAX_ENTRIES)
        .forEach((key) => delete data.entries[key]);
    }
    this.#memory = data;
    if (!this.remembers) return;
    try {
      if (!globalThis.localStorage) throw new Error('no localStorage');
      globalThis.localStorage.setItem(this.#storageKey, JSON.stringify(data));
    } catch {
      // Full or disabled storage: progress is simply not kept, and the progress line says so.
      this.#storageFailed();
      return;
    }
    pageChanges.dispatchEvent(new CustomEvent('change', { detail: { key: this.#storageKey, store: this } }));
  }

  /**
   * Binds a fixed slot (a published check's place in the lesson) to the current key of its
   * question; a different key saved earlier means the question or answer changed, so its
   * saved answer is discarded.
   * @param {string} slot
   * @param {string} key
   */
  claimSlot(slot, key) {
    this.#update((data) => {
      const previous = data.slots[slot];
      if (previous === key) return false;
      if (previous) delete data.entries[previous];
      data.slots[slot] = key;
      return true;
    });
  }

  /**
   * The saved `{answer, correct}` for a question key, or null.
   * @param {string | null} key
   */
  get(key) {
    if (!key) return null;
    const entry = ownValue(this.#current().entries, key);
    return entry ? { answer: entry.answer, correct: entry.correct } : null;
  }

  /**
   * Saves `answer` to the question `key` (none: nothing is saved).
   * @param {string | null} key
   * @param {number} answer
   * @param {boolean} correct
   */
  save(key, answer, correct) {
    if (!key) return;
    let changed = false;
    this.#update((data) => {
      const previous = ownValue(data.entries, key);
      if (previous && previous.answer === answer && previous.correct === Boolean(correct)) return false;
      data.entries[key] = { answer, correct: Boolean(correct), savedAt: Date.now() };
      changed = true;
      return true;
    });
    if (changed) this.#onSave(key, answer, Boolean(correct));
  }

  /** Every saved answer: `{[questionKey]: {answer, correct}}` (a copy). Never throws. */
  answers() {
    return Object.fromEntries(
      Object.entries(this.#current().entries).map(([key, e]) => [key, { answer: e.answer, correct: e.correct }]),
    );
  }

  /**
   * Replaces the saved answers with `answers` (the shape answers() returns); entries that are
   * not `{answer: finite number, correct?: boolean}` are skipped.
   * @param {unknown} answers
   */
  replaceAnswers(answers) {
    /** @type {Record<string, SavedEntry>} */
    const entries = Object.create(null);
    if (answers && typeof answers === 'object') {
      for (const [key, value] of Object.entries(/** @type {Record<string, {answer?: unknown, correct?: unknown} | null>} */ (answers))) {
        if (!value || typeof value !== 'object' || !Number.isFinite(value.answer)) continue;
        entries[key] = { answer: /** @type {number} */ (value.answer), correct: Boolean(value.correct), savedAt: 0 };
      }
    }
    this.#update((data) => {
      data.entries = entries;
      return true;
    });
  }

  /** Forgets every saved answer. */
  clear() {
    this.#memory = emptyProgress();
    if (!this.remembers) return;
    try {
      globalThis.localStorage?.removeItem(this.#storageKey);
    } catch {
      // Nothing to clear.
    }
    pageChanges.dispatchEvent(new CustomEvent('change', { detail: { key: this.#storageKey, store: this } }));
  }
}

/** Stores of one page hear of each other's writes here (the `storage` event is for other tabs). */
const pageChanges = new EventTarget();

/** @returns {Progress} */
function emptyProgress() {
  return { entries: Object.create(null), slots: Object.create(null) };
}

/**
 * `object[key]` when `key` is its own member (never a prototype's: "__proto__", "toString").
 * @template T
 * @param {Record<string, T>} object
 * @param {string} key
 * @returns {T | undefined}
 */
function ownValue(object, key) {
  return Object.hasOwn(object, key) ? object[key] : undefined;
}

/**
 * Stored text as progress: fresh objects holding only well-formed answers and slots, and what
 * was discarded (null when nothing was).
 * @param {string} text
 * @returns {{progress: Progress, problem: string|null}}
 */
export function readProgress(text) {
  const progress = emptyProgress();
  let parsed;
  try {
    parsed = JSON.parse(text);
  } catch {
    return { progress, problem: 'the saved answers are not JSON' };
  }
  /** @type {(value: unknown) => value is Record<string, any>} */ // any: stored JSON, each member checked below
  const isObject = (value) => value !== null && typeof value === 'object' && !Array.isArray(value);
  if (!isObject(parsed) || !isObject(parsed.entries) || !isObject(parsed.slots)) {
    return { progress, problem: 'the saved answers are not in the format this page writes' };
  }
  let dropped = 0;
  for (const [key, entry] of Object.entries(parsed.entries)) {
    if (isObject(entry) && Number.isFinite(entry.answer) && typeof entry.correct === 'boolean' && Number.isFinite(entry.savedAt)) {
      progress.entries[key] = { answer: entry.answer, correct: entry.correct, savedAt: entry.savedAt };
    } else {
      dropped += 1;
    }
  }
  for (const [slot, key] of Object.entries(parsed.slots)) {
    if (typeof key === 'string') progress.slots[slot] = key;
    else dropped += 1;
  }
  return { progress, problem: dropped ? `${dropped} saved ${dropped === 1 ? 'entry was' : 'entries were'} not answers` : null };
}
