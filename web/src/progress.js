// Saved quiz progress in localStorage, as the Atlas keeps it: each saved answer is keyed by
// the SHA-256 of the question, its options and its answer (for generated checks: the question,
// the options or unit, and the engine's expected value). When any of those change, the key
// changes and the old answer is no longer found; entries for a published check's slot that no
// longer match are deleted, and the store keeps only the most recent answers.
//
// Storage is best effort: without Web Crypto (an insecure origin) or localStorage (disabled,
// full), answers are still checked, just not remembered.

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
  #saved = null;

  constructor(storageKey) {
    this.#storageKey = storageKey;
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
    try {
      const parsed = JSON.parse(globalThis.localStorage?.getItem(this.#storageKey) ?? 'null');
      if (parsed && typeof parsed === 'object' && parsed.entries && parsed.slots) return parsed;
    } catch {
      // Unreadable or unavailable storage: start empty.
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
    try {
      globalThis.localStorage?.setItem(this.#storageKey, JSON.stringify(this.#data));
    } catch {
      // Full or disabled storage: progress is simply not kept.
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
    this.#data.entries[key] = { answer, correct: Boolean(correct), savedAt: Date.now() };
    this.#write();
  }

  /** Forgets every saved answer. */
  clear() {
    this.#saved = { entries: {}, slots: {} };
    try {
      globalThis.localStorage?.removeItem(this.#storageKey);
    } catch {
      // Nothing to clear.
    }
  }
}
