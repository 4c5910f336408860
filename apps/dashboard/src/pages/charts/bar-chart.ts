import { html, type SafeHtml } from '@cp/web-forms';

/** One bar: its short label under the axis, its full name in the table, its value. */
export interface Bar {
  readonly axisLabel: string;
  readonly name: string;
  readonly value: number;
}

export interface BarChart {
  /** Unique on the page: the prefix of the ids that tie the picture to its title and description. */
  readonly id: string;
  readonly title: string;
  /** What the chart shows, in words: announced with the picture, in place of it. */
  readonly description: string;
  /** The table's column headers: what names a bar, what its value counts. */
  readonly columns: readonly [string, string];
  /** Oldest first. */
  readonly bars: readonly Bar[];
}

/** The drawing's own units; the stylesheet scales it to the column's width. */
const WIDTH = 300;
const HEIGHT = 150;
const TOP = 16;
const BOTTOM = 22;
/** Room at each end for the first and the last axis label. */
const SIDE = 8;
/** Axis labels shown at most, so each has room at the narrowest width. */
const MAX_AXIS_LABELS = 6;

const round = (n: number) => Math.round(n * 10) / 10;

/**
 * A bar chart drawn on the server as inline SVG (docs/decisions/0018-interactive-parts-drawn-on-the-server.md): no
 * script and nothing the pages' CSP refuses (colours and type come from the stylesheet, by class). Assistive
 * technology reads it as one image with a title and a description; the same numbers are in a table behind
 * a disclosure, for anyone who wants them exactly.
 */
export function barChart(chart: BarChart): SafeHtml {
  const { id, bars } = chart;
  const max = Math.max(0, ...bars.map((bar) => bar.value));
  const slot = (WIDTH - 2 * SIDE) / Math.max(1, bars.length);
  const baseline = HEIGHT - BOTTOM;
  const labelEvery = Math.ceil(bars.length / MAX_AXIS_LABELS);
  const marks = bars.map((bar, i) => {
    const height = max === 0 ? 0 : round((bar.value / max) * (baseline - TOP));
    const left = SIDE + slot * i;
    const middle = round(left + slot / 2);
    // Counted from the newest bar, so the latest one is always labelled.
    const labelled = (bars.length - 1 - i) % labelEvery === 0;
    return html`${height > 0 ? html`<rect class="bar" x="${round(left + slot * 0.15)}" y="${round(baseline - height)}" width="${round(slot * 0.7)}" height="${height}"></rect>` : ''}<text class="value" x="${middle}" y="${round(baseline - height - 4)}">${bar.value}</text>${labelled ? html`<text class="axis-label" x="${middle}" y="${HEIGHT - 6}">${bar.axisLabel}</text>` : ''}`;
  });
  return html`<div class="chart">
<svg role="img" aria-labelledby="${id}-title" aria-describedby="${id}-desc" viewBox="0 0 ${WIDTH} ${HEIGHT}"><title id="${id}-title">${chart.title}</title><desc id="${id}-desc">${chart.description}</desc>
${marks}<line class="axis" x1="${SIDE}" y1="${baseline}" x2="${WIDTH - SIDE}" y2="${baseline}"></line></svg>
<details><summary>${chart.title} as a table</summary>
<table><thead><tr><th scope="col">${chart.columns[0]}</th><th scope="col">${chart.columns[1]}</th></tr></thead>
<tbody>${bars.map((bar) => html`<tr><th scope="row">${bar.name}</th><td>${bar.value}</td></tr>`)}</tbody></table></details>
</div>`;
}
