// @ts-check
// Writing attributes and text through d3 selections, without touching what is already there.
// Charts are updated in place, and on a new scenario most of an SVG's attributes and texts keep
// their values (axis titles, labels, sizes). d3's own `selection.attr` and `selection.text`
// write every value they are given, and Blink treats any write to an SVG attribute or text as a
// change to lay out again; these two write only the values that differ. They are plain
// functions for d3's `selection.call` (d3's prototype stays as d3 ships it):
//   part(svg, 'ridge', 'line').call(writeAttrs, { class: 'ridge', x1: 0, x2: (d) => x(d) })
//   joinMarks(...).select('title').call(writeText, (d) => d.label)

import { setAttr, setText } from '../dom.js';

/**
 * A d3 selection of a chart's elements (an <svg>, a part, a join of marks). Its element and
 * datum types are left open (any) on purpose: parts are found by name at run time and each
 * chart's marks carry that chart's own records, which its draw function builds and reads.
 * @typedef {import('d3-selection').Selection<any, any, any, any>} Sel
 */
/**
 * An attribute's or a text's value, or d3's per-element callback for one.
 * d is the element's datum: that chart's own record (any, as Sel's).
 * @typedef {string | number | boolean | null | undefined | ((this: Element, d: any, i: number, nodes: ArrayLike<Element>) => unknown)} Written
 */

/**
 * Sets each attribute of `values` (name → value, or `(d, i, nodes) => value` called with the
 * element as `this`, as d3's attr) on every element of `selection`, skipping an element whose
 * attribute already holds that value; null or undefined removes the attribute. Names are plain
 * attribute names (SVG's and HTML's; no namespace prefix). The attributes are written in the
 * order given, element by element.
 * @returns the selection (for d3's `call`, which returns it in any case)
 * @param {Sel} selection
 * @param {Record<string, Written>} values
 */
export function writeAttrs(selection, values) {
  const entries = Object.entries(values);
  return selection.each(/** @this {Element} @param {unknown} d @param {number} i @param {ArrayLike<Element>} nodes */ function write(d, i, nodes) {
    for (const [name, value] of entries) {
      const v = typeof value === 'function' ? value.call(this, d, i, nodes) : value;
      if (v === null || v === undefined) {
        if (this.hasAttribute(name)) this.removeAttribute(name);
      } else {
        setAttr(this, name, v);
      }
    }
  });
}

/**
 * Sets the text of every element of `selection` to `value` (or `(d, i, nodes) => value`, as
 * d3's text; null or undefined is the empty text), skipping an element whose text is already
 * that.
 * @param {Sel} selection
 * @param {Written} value
 * @returns {Sel}
 */
export function writeText(selection, value) {
  return selection.each(/** @this {Element} @param {unknown} d @param {number} i @param {ArrayLike<Element>} nodes */ function write(d, i, nodes) {
    const v = typeof value === 'function' ? value.call(this, d, i, nodes) : value;
    setText(this, v === null || v === undefined ? '' : v);
  });
}
