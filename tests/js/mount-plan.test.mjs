// The element's plans (web/src/element/plan.js): what each view loads and places, in order.
// The expectations are the views as README "Embedding in the Atlas" states them: `full` the
// lesson with the explorer, `lesson` no explorer (no charts module), `explorer` no lesson file,
// equations or KaTeX; and the start's order of docs/performance.md (the engine's request in a
// task of its own, then the lesson's, before anything is placed).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { PLANS } from '../../web/src/element/plan.js';

const parts = (view) => PLANS[view].filter((step) => step.part).map((step) => `${step.part}.${step.action}`);

test('each view loads and places what it shows, and nothing else', () => {
  assert.deepEqual(Object.keys(PLANS).sort(), ['explorer', 'full', 'lesson']);
  assert.deepEqual(parts('full'), ['engine.load', 'lesson.load', 'engine.place', 'explorer.place', 'lesson.place', 'equations.place']);
  assert.deepEqual(parts('lesson'), ['engine.load', 'lesson.load', 'engine.place', 'lesson.place', 'equations.place']);
  assert.deepEqual(parts('explorer'), ['engine.load', 'engine.place', 'explorer.place']);
});

test('every view begins with the same two tasks, and ends on exactly one last step', () => {
  for (const [view, steps] of Object.entries(PLANS)) {
    assert.deepEqual(steps.slice(0, 2).map((step) => step.task), ['engine-fetch', 'fetch-lesson'], view);
    assert.deepEqual(steps.map((step) => Boolean(step.last)), steps.map((_, i) => i === steps.length - 1), view);
  }
  // Only the explorer view refuses a lesson-src naming another lesson (it never fetches it to find out).
  assert.equal(PLANS.explorer.find((step) => step.part === 'explorer').refuseOtherLesson, true);
  assert.equal(PLANS.full.find((step) => step.part === 'explorer').refuseOtherLesson, false);
  assert.equal(PLANS.full.find((step) => step.part === 'explorer').lead, 'loading');
});
