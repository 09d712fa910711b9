// @ts-check
// A trace document refilled from the engine's figures (layout 3, docs/trace-json.md, "Figures"):
// a control change costs one JSON-free `traceFigures` call instead of building, sending and
// parsing the whole JSON text. The figures are [3, signature, every number of the document in
// the order its JSON text prints them]; the signature hashes everything else (every key and
// text, every list's length), so a document parsed once with the same signature supplies those.
// Nothing is computed or named here: the walk below visits a parsed document in its own key
// order (JSON.parse keeps the text's order; the engine prints no integer-like keys) and takes one
// figure for each number, null, boolean and bound; `layout` (the engine's figuresLayout()) says
// which keys hold a bound and the bound's names by code.

/** @typedef {import('prefill-trace').FiguresLayout} FiguresLayout */
/** A figures array: the layout version, the shape signature, then one number per leaf. @typedef {ArrayLike<number>} Figures */
/**
 * An object or array of a trace document, walked generically (the figures follow the document's
 * own order, whatever its keys): its leaves are numbers, booleans, texts or null.
 * @typedef {Record<string | number, unknown>} DocumentNode
 */
export const FIGURES_LAYOUT_VERSION = 3;

/**
 * The shape signature of a figures array (NaN when the layout is not version 3).
 * @param {Figures} figures
 */
export function figuresSignature(figures) {
  return figures[0] === FIGURES_LAYOUT_VERSION ? figures[1] : NaN;
}

/**
 * @type {WeakMap<FiguresLayout, Set<string>>}
 */
const boundKeySets = new WeakMap();

/**
 * The bound keys of a parsed figuresLayout(), as a set for the walk (made once per layout).
 * @param {FiguresLayout} layout
 */
function boundKeysOf(layout) {
  let keys = boundKeySets.get(layout);
  if (!keys) {
    keys = new Set(layout.bound_keys);
    boundKeySets.set(layout, keys);
  }
  return keys;
}

/**
 * Calls `leaf(container, key, isBound)` for every leaf of `node` that has a figure, in figure
 * order; texts (the shape) are passed over. Returns false when `leaf` does.
 * @param {DocumentNode} node
 * @param {Set<string>} boundKeys
 * @param {(container: DocumentNode, key: string | number, isBound: boolean) => boolean} leaf
 * @returns {boolean}
 */
function walk(node, boundKeys, leaf) {
  if (Array.isArray(node)) {
    for (let i = 0; i < node.length; i++) {
      const value = node[i];
      if (value !== null && typeof value === 'object') {
        if (!walk(/** @type {DocumentNode} */ (value), boundKeys, leaf)) return false;
      } else if (typeof value !== 'string' && !leaf(node, i, false)) return false;
    }
    return true;
  }
  for (const key in node) {
    const value = node[key];
    if (value !== null && typeof value === 'object') {
      if (!walk(/** @type {DocumentNode} */ (value), boundKeys, leaf)) return false;
    } else {
      const isBound = boundKeys.has(key);
      if ((typeof value !== 'string' || isBound) && !leaf(node, key, isBound)) return false;
    }
  }
  return true;
}

/**
 * Writes every figure of `figures` into `t` in place (a trace document of the signature
 * `shapeSignature`, such as one computeTrace returned), so a change costs no copy of the
 * document. `layout` is the engine's parsed figuresLayout(). Returns false, having written
 * nothing, when the signatures differ; false also when the array's length does not match the
 * shape, and then `t` is partly written and must be dropped.
 * @param {object} t
 * @param {number} shapeSignature
 * @param {Figures} figures
 * @param {FiguresLayout} layout
 */
export function refillTrace(t, shapeSignature, figures, layout) {
  if (figuresSignature(figures) !== shapeSignature || figures[0] !== layout.version) return false;
  const names = layout.bound_names;
  let at = 2;
  const complete = walk(/** @type {DocumentNode} */ (t), boundKeysOf(layout), (node, key, isBound) => {
    if (at >= figures.length) return false;
    const figure = figures[at++];
    if (Number.isNaN(figure)) node[key] = null;
    else if (isBound) node[key] = names[figure];
    else if (typeof node[key] === 'boolean') node[key] = figure === 1;
    else node[key] = figure;
    return true;
  });
  return complete && at === figures.length;
}

/**
 * Where the leaf at `path` (keys and indices from the root, e.g. ['operators', 3, 'intensity'])
 * of document `t` sits in a figures array of t's shape; -1 when it has no figure.
 * @param {object} t
 * @param {(string | number)[]} path
 * @param {FiguresLayout} layout
 */
export function figureIndex(t, path, layout) {
  const target = path.slice(0, -1).reduce((/** @type {unknown} */ node, key) => (node == null ? node : /** @type {DocumentNode} */ (node)[key]), t);
  const last = path[path.length - 1];
  let at = 2;
  let found = -1;
  walk(/** @type {DocumentNode} */ (t), boundKeysOf(layout), (node, key) => {
    if (node === target && key === last) {
      found = at;
      return false;
    }
    at++;
    return true;
  });
  return found;
}
