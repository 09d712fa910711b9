// DOM building without markup strings: every piece of lesson text becomes a Text node, so
// nothing in a lesson file can inject elements, attributes or script.

/**
 * Creates an element. `attrs` values are set with setAttribute (or as a boolean attribute when
 * `true`); children may be nodes, strings (inserted as Text nodes), or null/false (skipped).
 * @param {string} tag
 * @param {Record<string, unknown>} [attrs]
 * @param {...unknown} children  nodes, texts, null/false/undefined, or arrays of them
 * @returns {HTMLElement}
 */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === false || value === null || value === undefined) continue;
    el.setAttribute(name, value === true ? '' : String(value));
  }
  append(el, children);
  return el;
}

/**
 * Appends children as h() does.
 * @template {ParentNode} P
 * @param {P} parent
 * @param {unknown[]} children
 * @returns {P}
 */
export function append(parent, children) {
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    parent.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return parent;
}

/**
 * True for an absolute https URL: the only kind of off-site address the page links to.
 * @param {unknown} url
 * @returns {url is string}
 */
export function isHttpsUrl(url) {
  if (typeof url !== 'string') return false;
  try {
    return new URL(url).protocol === 'https:';
  } catch {
    return false;
  }
}

/**
 * A link when `url` is https, otherwise the text alone (the address is not trusted).
 * @param {unknown} text
 * @param {unknown} url
 */
export function externalLink(text, url) {
  return isHttpsUrl(url) ? h('a', { href: url, rel: 'noopener' }, text) : h('span', {}, text);
}

/**
 * Sets a node's text only when it differs (an unchanged node costs no style or layout work).
 * A node holding one Text node keeps it and has its data changed: setting textContent would
 * remove that node and insert a new one (a child-list change, more for the browser to redo).
 * @param {Node} node
 * @param {unknown} text
 */
export function setText(node, text) {
  const value = String(text);
  const only = node.firstChild;
  if (only !== null && only === node.lastChild && only.nodeType === 3) {
    const textNode = /** @type {Text} */ (only);
    if (textNode.data !== value) textNode.data = value;
  } else if (node.textContent !== value) {
    node.textContent = value;
  }
}

/**
 * Sets an attribute only when it differs.
 * @param {Element} node
 * @param {string} name
 * @param {unknown} value
 */
export function setAttr(node, name, value) {
  const text = String(value);
  if (node.getAttribute(name) !== text) node.setAttribute(name, text);
}
