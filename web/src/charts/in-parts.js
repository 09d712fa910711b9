// A drawing in parts (issue 30 item 8): a chart of several panels (the serving timeline, the
// token picture) draws each panel through `drawParts`. Called as ever (ChartPanel#update, a
// resize), the parts run at once, so the chart is whole when `update` returns. Inside
// `deferParts`, they are handed back instead, for the caller to run each in a task of its own:
// "Under load" draws its charts after a run that way (under-load.js #show), because one chart's
// three panels at once were one task of 54–172 ms on a 4× slowed phone (docs/performance.md).

/** The parts collected by the innermost deferParts, or null: run them at once. @type {(() => void)[] | null} */
let collecting = null;

/**
 * Runs each of `parts` now, or, inside deferParts, keeps them for its caller.
 * @param {(() => void)[]} parts
 */
export function drawParts(parts) {
  if (collecting) collecting.push(...parts);
  else for (const draw of parts) draw();
}

/**
 * Runs `draw` (a chart's update) and returns the parts its drawing left to run later, in order;
 * the caller must run them all (before the next update of that chart) for the chart to be whole.
 * @param {() => unknown} draw
 * @returns {(() => void)[]}
 */
export function deferParts(draw) {
  const outer = collecting;
  /** @type {(() => void)[]} */
  const parts = [];
  collecting = parts;
  try {
    draw();
  } finally {
    collecting = outer;
  }
  return parts;
}
