// Time to first token: queueing + execution + first-token delivery as one stacked bar, and a
// sweep of TTFT against prompt length or arrival rate computed by the engine in one call.
// When the queue is overloaded the engine gives no queue time (null): the bar shows an
// unbounded hatched queue and the sweep leaves those points out, shading the overloaded range.

import { scaleLinear, scaleLog } from 'd3-scale';
import { line } from 'd3-shape';
import { h } from '../dom.js';
import * as fmt from '../format.js';
import { ChartPanel, bottomAxis, dataTable, decadeTicks, hatchPattern, leftAxis, legend, svgOf } from './common.js';

const PARTS = [
  { key: 'queue_seconds', label: 'Queueing', className: 'ttft-queue' },
  { key: 'execution_seconds', label: 'Execution', className: 'ttft-execution' },
  { key: 'delivery_seconds', label: 'First-token delivery', className: 'ttft-delivery' },
];

function drawBar(width, { trace }) {
  const ttft = trace.totals.ttft;
  const height = 118;
  const m = { top: 22, right: 16, bottom: 50, left: 16 };
  const svg = svgOf(width, height, 'ttft');
  const hatch = hatchPattern(svg, 'unbounded');
  const known = (ttft.execution_seconds ?? 0) + (ttft.delivery_seconds ?? 0);
  const end = ttft.overloaded ? known * 2 : ttft.total_seconds;
  const x = scaleLinear().domain([0, end || 1e-9]).nice().range([m.left, width - m.right]);
  bottomAxis(svg, x, {
    y: height - m.bottom,
    width: width - m.left - m.right,
    format: fmt.seconds,
    title: 'Time to first token',
  });
  const barY = m.top;
  const barH = height - m.bottom - barY - 8;
  let start = 0;
  for (const part of PARTS) {
    const value = ttft[part.key];
    if (value === null) continue;
    const x0 = x(start);
    const w = Math.max(0, x(start + value) - x0);
    svg
      .append('rect')
      .attr('class', `ttft-part ${part.className}`)
      .attr('x', x0)
      .attr('y', barY)
      .attr('width', w)
      .attr('height', barH)
      .append('title')
      .text(`${part.label}: ${fmt.seconds(value)}`);
    if (w > part.label.length * 6.4 + 8) {
      svg
        .append('text')
        .attr('class', 'segment-label')
        .attr('x', x0 + 4)
        .attr('y', barY + barH / 2 + 4)
        .text(part.label);
    }
    start += value;
  }
  if (ttft.overloaded) {
    const x0 = x(start);
    svg
      .append('rect')
      .attr('class', 'ttft-part unbounded-area')
      .attr('fill', hatch)
      .attr('x', x0)
      .attr('y', barY)
      .attr('width', Math.max(0, width - m.right - x0))
      .attr('height', barH);
    svg
      .append('text')
      .attr('class', 'fit-verdict does-not-fit')
      .attr('x', width - m.right)
      .attr('y', barY - 6)
      .attr('text-anchor', 'end')
      .text('Overloaded: the queue grows without bound →');
  }
  return svg.node();
}

function describeBar({ trace }) {
  const ttft = trace.totals.ttft;
  const rho = trace.steps[4].facts.utilization;
  if (ttft.overloaded) {
    return (
      `Overloaded: utilization ρ = ${fmt.number(rho, 3)} ≥ 1, so the queue grows without bound and ` +
      `there is no steady time to first token. Execution ${fmt.seconds(ttft.execution_seconds)}, ` +
      `delivery ${fmt.seconds(ttft.delivery_seconds)}.`
    );
  }
  return (
    `Time to first token ${fmt.seconds(ttft.total_seconds)} = queueing ` +
    `${fmt.seconds(ttft.queue_seconds)} + execution ${fmt.seconds(ttft.execution_seconds)} + ` +
    `delivery ${fmt.seconds(ttft.delivery_seconds)} (utilization ρ = ${fmt.number(rho, 3)}).`
  );
}

function tableBar({ trace }) {
  const ttft = trace.totals.ttft;
  return dataTable(
    'Time to first token',
    ['Part', 'Seconds'],
    [
      ...PARTS.map((p) => [p.label, ttft[p.key] === null ? 'unbounded (overloaded)' : fmt.seconds(ttft[p.key])]),
      ['Total', ttft.total_seconds === null ? 'unbounded (overloaded)' : fmt.seconds(ttft.total_seconds)],
    ],
  );
}

export function ttftChart() {
  return new ChartPanel({
    id: 'chart-ttft',
    title: 'Time to first token',
    draw: drawBar,
    describe: describeBar,
    table: tableBar,
    legend: legend([
      ...PARTS.map((p) => ({ kind: 'bar', className: `ttft-part ${p.className}`, label: p.label })),
      { kind: 'hatch', className: 'unbounded', label: 'Unbounded queue (overloaded)' },
    ]),
  });
}

// --- Sweep -------------------------------------------------------------------------------

export const SWEEP_VARIABLES = {
  prompt_tokens: {
    label: 'Prompt length',
    choice: 'prompt length (T)',
    axis: 'Prompt tokens (log scale)',
    format: (v) => `${fmt.count(v)} ${v === 1 ? 'token' : 'tokens'}`,
    current: (trace) => trace.scenario.prompt_tokens,
  },
  arrival_rate: {
    label: 'Arrival rate',
    choice: 'arrival rate (λ)',
    axis: 'Arrival rate (requests/s, log scale)',
    format: (v) => fmt.rate(v),
    current: (trace) => trace.scenario.arrival_rate,
  },
};

const SWEEP_POINTS = 320;

/**
 * The values to sweep: log-spaced over 1…131,072 tokens (or to the current prompt, if longer),
 * or 0.001…10⁶ requests/s; the current value is always included so its marker sits on the line.
 */
export function sweepValues(variable, current) {
  const values = new Set();
  if (variable === 'prompt_tokens') {
    const top = Math.max(131072, Number.isFinite(current) ? current : 0);
    for (let i = 0; i < SWEEP_POINTS; i += 1) {
      values.add(Math.round(top ** (i / (SWEEP_POINTS - 1))));
    }
  } else {
    for (let i = 0; i < SWEEP_POINTS; i += 1) values.add(10 ** (-3 + (9 * i) / (SWEEP_POINTS - 1)));
  }
  if (Number.isFinite(current) && current > 0) values.add(current);
  return [...values].sort((a, b) => a - b);
}

function drawSweep(width, { points, variable, trace }) {
  const spec = SWEEP_VARIABLES[variable];
  const height = width < 480 ? 260 : 300;
  const m = { top: 14, right: 16, bottom: 50, left: 70 };
  const svg = svgOf(width, height, 'sweep');
  const hatch = hatchPattern(svg, 'unbounded');
  const x = scaleLog()
    .domain([points[0].value, points[points.length - 1].value])
    .range([m.left, width - m.right]);
  const ys = points
    .flatMap((p) => [p.total_seconds, p.execution_seconds])
    .filter((v) => v !== null && v > 0);
  const lo = Math.min(...ys);
  const hi = Math.max(...ys);
  const y = scaleLog()
    .domain([10 ** Math.floor(Math.log10(lo)), 10 ** Math.ceil(Math.log10(hi * 1.01))])
    .range([height - m.bottom, m.top]);
  bottomAxis(svg, x, {
    y: height - m.bottom,
    ticks: decadeTicks(x, Math.floor((width - 80) / 48)),
    title: spec.axis,
  });
  leftAxis(svg, y, {
    x: m.left,
    ticks: decadeTicks(y, 7),
    format: fmt.seconds,
    title: 'Seconds (log scale)',
    titleOffset: 58,
  });

  const firstOverloaded = points.find((p) => p.overloaded);
  if (firstOverloaded) {
    const x0 = x(firstOverloaded.value);
    svg
      .append('rect')
      .attr('class', 'unbounded-area')
      .attr('fill', hatch)
      .attr('x', x0)
      .attr('y', m.top)
      .attr('width', Math.max(0, width - m.right - x0))
      .attr('height', height - m.bottom - m.top);
    svg
      .append('text')
      .attr('class', 'fit-verdict does-not-fit')
      .attr('x', Math.min(x0 + 6, width - m.right - 70))
      .attr('y', m.top + 14)
      .text('overloaded');
  }

  const curve = (key) =>
    line()
      .defined((p) => p[key] !== null && p[key] > 0)
      .x((p) => x(p.value))
      .y((p) => y(p[key]));
  svg.append('path').attr('class', 'sweep-line sweep-execution').attr('d', curve('execution_seconds')(points));
  svg.append('path').attr('class', 'sweep-line sweep-total').attr('d', curve('total_seconds')(points));

  const current = spec.current(trace);
  const here = points.find((p) => p.value === current);
  if (here) {
    const cx = x(here.value);
    svg
      .append('line')
      .attr('class', 'current-rule')
      .attr('x1', cx)
      .attr('x2', cx)
      .attr('y1', m.top)
      .attr('y2', height - m.bottom);
    if (here.total_seconds !== null) {
      svg.append('circle').attr('class', 'current-dot').attr('cx', cx).attr('cy', y(here.total_seconds)).attr('r', 4.5);
    }
    svg
      .append('text')
      .attr('class', 'chart-note')
      .attr('x', cx + (cx > width * 0.65 ? -5 : 5))
      .attr('y', height - m.bottom - 6)
      .attr('text-anchor', cx > width * 0.65 ? 'end' : 'start')
      .text('current');
  }
  return svg.node();
}

function describeSweep({ points, variable, trace }) {
  const spec = SWEEP_VARIABLES[variable];
  const finite = points.filter((p) => p.total_seconds !== null);
  const firstOverloaded = points.find((p) => p.overloaded);
  const parts = [
    `TTFT against ${spec.label.toLowerCase()}, ${points.length} points from ` +
      `${spec.format(points[0].value)} to ${spec.format(points[points.length - 1].value)}`,
  ];
  if (finite.length) {
    parts.push(
      `from ${fmt.seconds(finite[0].total_seconds)} to ${fmt.seconds(finite[finite.length - 1].total_seconds)}`,
    );
  }
  if (firstOverloaded) parts.push(`overloaded from ${spec.format(firstOverloaded.value)} on`);
  const current = spec.current(trace);
  if (variable === 'arrival_rate' && !(current > 0)) parts.push('current rate 0: no queue');
  return `${parts.join('; ')}.`;
}

function tableSweep({ points, variable }) {
  const spec = SWEEP_VARIABLES[variable];
  // Every 16th point keeps the table readable; the chart holds all of them.
  const sample = points.filter((_, i) => i % 16 === 0 || i === points.length - 1);
  return dataTable(
    `TTFT sweep (every 16th of ${points.length} points)`,
    [spec.label, 'Queueing', 'Execution', 'Delivery', 'TTFT'],
    sample.map((p) => [
      spec.format(p.value),
      p.queue_seconds === null ? 'unbounded' : fmt.seconds(p.queue_seconds),
      fmt.seconds(p.execution_seconds),
      fmt.seconds(p.delivery_seconds),
      p.total_seconds === null ? 'overloaded' : fmt.seconds(p.total_seconds),
    ]),
  );
}

/** The sweep chart with its "Sweep against" radio group; `onVariable` gets the new choice. */
export function sweepChart(onVariable) {
  const name = 'sweep-variable';
  const group = h(
    'fieldset',
    { class: 'segmented' },
    h('legend', {}, 'Sweep TTFT against'),
    Object.entries(SWEEP_VARIABLES).map(([value, spec], i) =>
      h(
        'label',
        {},
        h('input', { type: 'radio', name, value, checked: i === 0 }),
        ' ',
        spec.choice,
      ),
    ),
  );
  group.addEventListener('change', (event) => onVariable(event.target.value));
  const panel = new ChartPanel({
    id: 'chart-sweep',
    title: 'TTFT sweep',
    draw: drawSweep,
    describe: describeSweep,
    table: tableSweep,
    extra: [group],
    legend: legend([
      { kind: 'bar', className: 'sweep-swatch sweep-total', label: 'Time to first token' },
      { kind: 'bar', className: 'sweep-swatch sweep-execution', label: 'Execution alone' },
      { kind: 'hatch', className: 'unbounded', label: 'Overloaded' },
    ]),
  });
  panel.setVariable = (variable) => {
    for (const input of group.querySelectorAll('input')) input.checked = input.value === variable;
  };
  return panel;
}
