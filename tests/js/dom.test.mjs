// web/src/dom.js's setText under linkedom (a DOM in Node): it changes a text in place.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseHTML } from 'linkedom';

import { setText } from '../../web/src/dom.js';

const { document } = parseHTML('<!doctype html><html><body></body></html>');

test('setText changes the Text node an element holds instead of replacing it', () => {
  const p = document.createElement('p');
  p.textContent = '2.05 ms';
  const text = p.firstChild;
  setText(p, '4.1 ms');
  assert.equal(p.textContent, '4.1 ms');
  assert.equal(p.firstChild, text, 'the same Text node');
  assert.equal(p.childNodes.length, 1);
});

test('setText replaces mixed or element children, and fills an empty element', () => {
  const p = document.createElement('p');
  p.append('a ', document.createElement('b'), ' c');
  setText(p, 'plain');
  assert.equal(p.textContent, 'plain');
  assert.equal(p.childNodes.length, 1);
  const empty = document.createElement('span');
  setText(empty, 42);
  assert.equal(empty.textContent, '42');
});
