// Saved quiz progress in localStorage, as the Atlas keeps it: each saved answer is keyed by
// the SHA-256 of the question, its options and its answer (for generated checks: the question,
// the options or unit, and the engine's expected value). When any of those change, the key
// changes and the old answer is no longer found; entries for a published check's slot that no
// longer match are deleted, and the store keeps only the most recent answers.
//
// Storage is best effort: without Web Crypto (an insecure origin) or localStorage (disabled,
// full), answers are still checked, just not remembered. A host that keeps progress itself
// (the element's storage="none") gets a store that never touches localStorage: it starts from
// the answers the host hands back (`replaceAnswers`) and reports each new one (`onSave`).

const MAX_ENTRIES = 200;

/** Hex SHA-256 of `text`, or null where Web Crypto is unavailable. */
export async function sha256Hex(text) {
  if (!globalThis.crypto?.subtle) return null;
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

/** The key material of a question: one canonical JSON text. */
export function questionKeyText(parts) {
  return JSON.stringify(parts);
}

export class ProgressStore {
  #storageKey;
  #persist;
  #onSave;
  #onUnavailable;
  #unavailable = false;
  #saved = null;

  /**
   * @param {string} storageKey  the localStorage key
   * @param {object} [options]
   * @param {boolean} [options.persist=true]  false: memory only, localStorage is never touched
   * @param {(key: string, answer: number, correct: boolean) => void} [options.onSave]  after a
   *        new or changed answer (not when a restored answer is saved again unchanged)
   * @param {() => void} [options.onUnavailable]  once, when it turns out that answers cannot be
   *        remembered here (no Web Crypto for the keys, localStorage missing, refused or full)
   */
  constructor(storageKey, { persist = true, onSave = () => {}, onUnavailable = () => {} } = {}) {
    this.#storageKey = storageKey;
    this.#persist = persist;
    this.#onSave = onSave;
    this.#onUnavailable = onUnavailable;
    // Without Web Crypto no answer has a key (sha256Hex), so none can be saved.
    if (persist && !globalThis.crypto?.subtle) this.#unavailable = true;
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

  /**
   * The stored progress, read on first use: the first localStorage access of a page opens the
   * origin's storage (milliseconds), and no saved answer is needed before the page is drawn.
   */
  get #data() {
    this.#saved ??= this.#read();
    return this.#saved;
  }

  #read() {
    if (!this.#persist) return { entries: {}, slots: {} };
    let text = null;
    try {
      // Reading the property itself throws where storage is disabled (a SecurityError).
      if (!globalThis.localStorage) throw new Error('no localStorage');
      text = globalThis.localStorage.getItem(this.#storageKey);
    } catch {
      this.#storageFailed();
    }
    try {
      const parsed = JSON.parse(text ?? 'null');
      if (parsed && typeof parsed === 'object' && parsed.entries && parsed.slots) return parsed;
    } catch {
      // An unreadable entry (another writer, an old format): start empty; the next save replaces it.
    }
    return { entries: {}, slots: {} };
  }

  #write() {
    const keys = Object.keys(this.#data.entries);
    if (keys.length > MAX_ENTRIES) {
      keys
        .sort((a, b) => this.#data.entries[a].savedAt - this.#data.entries[b].savedAt)
        .slice(0, keys.length - MAX_ENTRIES)
        .forEach((key) => delete this.#data.entries[key]);
    }
    if (!this.#persist) return;
    try {
      if (!globalThis.localStorage) throw new Error('no localStorage');
      globalThis.localStorage.setItem(this.#storageKey, JSON.stringify(this.#data));
    } catch {
      // Full or disabled storage: progress is simply not kept, and the progress line says so.
      this.#storageFailed();
    }
  }

  /**
   * Binds a fixed slot (a published check's place in the lesson) to the current key of its
   * question; a different key saved earlier means the question or answer changed, so its
   * saved answer is discarded.
   */
  claimSlot(slot, key) {
    const previous = this.#data.slots[slot];
    if (previous === key) return;
    if (previous) delete this.#data.entries[previous];
    this.#data.slots[slot] = key;
    this.#write();
  }

  /** The saved `{answer, correct}` for a question key, or null. */
  get(key) {
    if (!key) return null;
    const entry = this.#data.entries[key];
    return entry ? { answer: entry.answer, correct: Boolean(entry.correct) } : null;
  }

  save(key, answer, correct) {
    if (!key) return;
    const previous = this.#data.entries[key];
    if (previous && previous.answer === answer && previous.correct === Boolean(correct)) return;
    this.#data.entries[key] = { answer, correct: Boolean(correct), savedAt: Date.now() };
    this.#write();
    this.#onSave(key, answer, Boolean(correct));
  }

  /** Every saved answer: `{[questionKey]: {answer, correct}}` (a copy). */
  answers() {
    return Object.fromEntries(
      Object.entries(this.#data.entries).map(([key, e]) => [key, { answer: e.answer, correct: Boolean(e.correct) }]),
    );
  }

  /**
   * Replaces the saved answers with `answers` (the shape answers() returns); entries that are
   * not `{answer: finite number, correct?: boolean}` are skipped.
   */
  replaceAnswers(answers) {
    const entries = {};
    if (answers && typeof answers === 'object') {
      for (const [key, value] of Object.entries(answers)) {
        if (!value || typeof value !== 'object' || !Number.isFinite(value.answer)) continue;
        entries[key] = { answer: value.answer, correct: Boolean(value.correct), savedAt: 0 };
      }
    }
    this.#saved = { entries, slots: { ...this.#data.slots } };
    this.#write();
  }

  /** Forgets every saved answer. */
  clear() {
    this.#saved = { entries: {}, slots: {} };
    if (!this.#persist) return;
    try {
      globalThis.localStorage?.removeItem(this.#storageKey);
    } catch {
      // Nothing to clear.
    }
  }
}
