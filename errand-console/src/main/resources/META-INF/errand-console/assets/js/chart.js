// The overview's throughput chart: attempts ended per minute, stacked bars drawn as SVG with DOM APIs.
import { h } from './dom.js';

const SVG = 'http://www.w3.org/2000/svg';
const SERIES = [['succeeded', 'ok'], ['retried', 'retried'], ['failed', 'failed']];

function svg(tag, attributes, ...children) {
  const element = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attributes || {})) element.setAttribute(name, String(value));
  for (const child of children.flat()) {
    if (child !== null && child !== undefined) element.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return element;
}

/** The chart, its totals and a legend; a note when the attempt history is off. */
export function throughputChart(throughput) {
  if (!throughput) {
    return h('p', { class: 'note', id: 'throughput' }, 'No throughput to show.');
  }
  const buckets = throughput.buckets;
  const totals = { succeeded: 0, retried: 0, failed: 0 };
  buckets.forEach(b => SERIES.forEach(([key]) => { totals[key] += b[key]; }));
  const highest = Math.max(1, ...buckets.map(b => b.succeeded + b.retried + b.failed));
  const barWidth = 8;
  const gap = 2;
  const height = 90;
  const width = buckets.length * (barWidth + gap);
  const bars = buckets.map((b, i) => {
    let y = height;
    const parts = SERIES.map(([key, css]) => {
      const size = Math.round(b[key] / highest * (height - 4));
      y -= size;
      return size > 0 ? svg('rect', { class: 'bar-' + css, x: i * (barWidth + gap), y, width: barWidth, height: size }) : null;
    });
    const label = new Date(b.start).toLocaleTimeString() + ': ' + b.succeeded + ' succeeded, ' + b.retried
      + ' retried, ' + b.failed + ' failed';
    return svg('g', { 'data-start': b.start }, svg('title', {}, label),
      svg('rect', { class: 'bar-slot', x: i * (barWidth + gap), y: 0, width: barWidth, height }), parts);
  });
  return h('div', { id: 'throughput' },
    h('p', {}, SERIES.map(([key, css], i) => [i ? ' · ' : '', h('span', { class: 'key key-' + css }),
      ' ', h('span', { 'data-total': key }, String(totals[key])), ' ' + key])
      , ' in the last ' + Math.round(buckets.length * throughput.bucketSeconds / 60) + ' min, per '
      + Math.round(throughput.bucketSeconds / 60) + ' min (highest ' + highest + ')'
      + (throughput.source === 'nodes'
        ? '; counted by the nodes and written with their heartbeat (the attempt history is off)' : '')),
    svg('svg', { class: 'throughput-chart', width, height, viewBox: `0 0 ${width} ${height}`, role: 'img',
      'aria-label': 'attempts per minute' }, bars));
}
