// web/src/charts/writes.js (issue 23: no patched d3 prototype): the charts write attributes and
// text through plain functions handed to d3's `selection.call`, and loading every chart leaves
// d3's selection prototype exactly as d3 ships it. Under linkedom (a DOM in Node).

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseHTML } from 'linkedom';
import { select, selection } from 'd3-selection';

const { document } = parseHTML('<!doctype html><html><body></body></html>');

/** Every own property of d3's selection prototype, by name (value or accessors). */
function prototypeSnapshot() {
  const proto = selection.prototype;
  return Object.fromEntries(Reflect.ownKeys(proto).map((key) => [String(key), Object.getOwnPropertyDescriptor(proto, key)]));
}

test('loading the charts (all of them, and their shared parts) leaves d3’s selection prototype untouched', async () => {
  const before = prototypeSnapshot();
  await import('../../web/src/charts/index.js');
  const after = prototypeSnapshot();
  assert.deepEqual(Object.keys(after).sort(), Object.keys(before).sort(), 'no method added or removed');
  for (const [name, descriptor] of Object.entries(before)) {
    assert.equal(after[name].value, descriptor.value, `selection.prototype.${name} is d3’s own`);
  }
});

/** Counts setAttribute/removeAttribute calls and text writes on `node`. */
function countWrites(node) {
  const counts = { set: 0, remove: 0 };
  const set = node.setAttribute.bind(node);
  const remove = node.removeAttribute.bind(node);
  node.setAttribute = (name, value) => {
    counts.set += 1;
    set(name, value);
  };
  node.removeAttribute = (name) => {
    counts.remove += 1;
    remove(name);
  };
  return counts;
}

test('writeAttrs sets what differs, skips what is already there, and removes null values', async () => {
  const { writeAttrs } = await import('../../web/src/charts/writes.js');
  const rect = document.createElement('rect');
  rect.setAttribute('x', '5');
  rect.setAttribute('display', 'none');
  const counts = countWrites(rect);
  const returned = select(rect)
    .datum({ w: 12 })
    .call(writeAttrs, { x: 5, width: (d) => d.w, display: null, fill: undefined });
  assert.equal(returned.node(), rect, 'call() hands back the selection for chaining');
  // x = 5 was there already (no write); width is new (one write); display is removed; fill was
  // never there (nothing to remove).
  assert.equal(rect.getAttribute('x'), '5');
  assert.equal(rect.getAttribute('width'), '12');
  assert.equal(rect.hasAttribute('display'), false);
  assert.deepEqual(counts, { set: 1, remove: 1 });
  // The same values again: nothing written at all.
  select(rect).call(writeAttrs, { x: 5, width: (d) => d.w, display: null });
  assert.deepEqual(counts, { set: 1, remove: 1 });
});

test('writeAttrs calls a value function as d3 does: with the datum, the index and the nodes, `this` the element', async () => {
  const { writeAttrs } = await import('../../web/src/charts/writes.js');
  const g = document.createElement('g');
  const items = select(g).selectAll('text').data(['a', 'b']).join('text');
  const seen = [];
  items.call(writeAttrs, {
    'data-name': function name(d, i, nodes) {
      seen.push([this === nodes[i], d, i, nodes.length]);
      return `${d}${i}`;
    },
  });
  assert.deepEqual(seen, [[true, 'a', 0, 2], [true, 'b', 1, 2]]);
  assert.deepEqual(items.nodes().map((n) => n.getAttribute('data-name')), ['a0', 'b1']);
});

test('writeText writes a changed text and leaves an unchanged one (null is empty)', async () => {
  const { writeText } = await import('../../web/src/charts/writes.js');
  const text = document.createElement('text');
  text.textContent = '2 ms';
  const node = text.firstChild;
  select(text).call(writeText, '2 ms');
  assert.equal(text.firstChild, node, 'unchanged: the same Text node');
  select(text).datum(4).call(writeText, (d) => `${d} ms`);
  assert.equal(text.textContent, '4 ms');
  select(text).call(writeText, null);
  assert.equal(text.textContent, '');
});
