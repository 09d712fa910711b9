// The explorer's seven charts, and d3 with them: bundled alone by script/build-site (as
// chunks/charts.js, config.js CHARTS_MODULE) and imported by the explorer when it has drawn its
// first trace, since the charts sit below the figures and the steps. A cold load fetches,
// parses and runs none of it before then.

import { bytesChart } from './bytes.js';
import { intensityChart } from './intensity.js';
import { decodeChart } from './decode.js';
import { memoryChart } from './memory.js';
import { reuseChart } from './reuse.js';
import { rooflineChart } from './roofline.js';
import { timeChart } from './time.js';
import { sweepChart } from './sweep.js';
import { ttftChart } from './ttft.js';

export { sweepValues } from './sweep.js';
export { inlineFigure } from './inline.js';
export { curvePrompts, projectionNames } from './intensity.js';
export { POLICIES, attainmentChart, percentileChart, timelineChart } from './serving.js';
export { deferParts } from './in-parts.js';
export { kvChart } from './serving-kv.js';
export { tokensChart } from './serving-tokens.js';

/**
 * Makes the charts, in the order they are shown (an update draws them in place later).
 * @param {(variable: string) => void} onSweepVariable  the reader picked what the sweep varies
 * @param {(scale: string) => void} [onSweepScale]  the reader picked the sweep's axes (log | linear)
 * @param {(held: boolean) => void} [onTtftHold]  the reader held (or freed) the TTFT bar's axis
 * @param {((control: string, value: number, commit: boolean) => void) | null} [onDrag]  the reader dragged
 *        (or keyed) a chart's current point: the prompt on the intensity chart, the swept value on
 *        the sweep; `control` is the explorer's control key ('prompt' | 'rate')
 */
export function createCharts(onSweepVariable, onSweepScale, onTtftHold, onDrag = null) {
  // Returns ChartPanel-based charts, by name.
  const control = { prompt_tokens: 'prompt', arrival_rate: 'rate' };
  return {
    roofline: rooflineChart(),
    intensity: intensityChart(onDrag && ((value, commit) => onDrag('prompt', value, commit))),
    time: timeChart(),
    bytes: bytesChart(),
    memory: memoryChart(),
    ttft: ttftChart(onTtftHold),
    sweep: sweepChart(onSweepVariable, onSweepScale, onDrag && ((variable, value, commit) => onDrag(control[variable], value, commit))),
    decode: decodeChart(),
    reuse: reuseChart(),
  };
}
