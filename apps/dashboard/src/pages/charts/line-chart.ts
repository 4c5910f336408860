import { html, type SafeHtml } from '@cp/web-forms';

/** One line: its name (legend and table column) and a value per bucket, null where nothing was measured. */
export interface Line {
  readonly name: string;
  readonly values: readonly (number | null)[];
}

/** A moment on the time axis drawn as a numbered vertical rule (a release). */
export interface TimeMark {
  readonly at: Date;
  /** What happened, in words: the list under the chart and the table's last column. */
  readonly name: string;
}

export interface LineChart {
  /** Unique on the page: the prefix of the ids that tie the picture to its title and description. */
  readonly id: string;
  readonly title: string;
  /** What the chart shows, in words: announced with the picture, in place of it. */
  readonly description: string;
  /** The time axis: [from, to), cut into buckets that start at `buckets` (oldest first) and last `bucketMs`. */
  readonly from: Date;
  readonly to: Date;
  readonly buckets: readonly Date[];
  readonly bucketMs: number;
  readonly lines: readonly Line[];
  /** Numbered 1, 2, … in this order (oldest first), as in the list the page shows. */
  readonly marks: readonly TimeMark[];
  /** What the marks are, in the legend and the table's last column: releases unless said (a rollout's stages). */
  readonly markKind?: { readonly legend: string; readonly column: string };
  /** The table's first column ("Hour from (UTC)") and each bucket's name in it and on the axis. */
  readonly timeColumn: string;
  readonly timeName: (at: Date) => string;
  readonly axisName: (at: Date) => string;
  /** A value as the table and the axis show it ("12", "23 ms"). */
  readonly format: (value: number) => string;
}

/** The drawing's own units; the stylesheet scales it to the column's width. */
const WIDTH = 440;
const HEIGHT = 180;
const TOP = 18;
const BOTTOM = 22;
const LEFT = 50;
const RIGHT = 18;
/** Axis labels shown at most, so each has room at the narrowest width. */
const MAX_AXIS_LABELS = 5;
/** Lines told apart by colour, dash and point shape: the stylesheet's `.line-1` to `.line-6`, then again. */
export const LINE_STYLES = 6;

const round = (n: number) => Math.round(n * 10) / 10;
const styleOf = (index: number) => (index % LINE_STYLES) + 1;

/** A point's mark: a different shape per line, so lines differ by more than colour. */
function pointMark(style: number, x: number, y: number): SafeHtml {
  const r = 2.5;
  switch (style) {
    case 2:
    case 5:
      return html`<rect x="${round(x - r)}" y="${round(y - r)}" width="${2 * r}" height="${2 * r}"></rect>`;
    case 3:
    case 6:
      return html`<path d="M${round(x)} ${round(y - r - 0.5)}L${round(x + r + 0.5)} ${round(y + r)}L${round(x - r - 0.5)} ${round(y + r)}Z"></path>`;
    default:
      return html`<circle cx="${round(x)}" cy="${round(y)}" r="${r}"></circle>`;
  }
}

/** The legend's sample of a line: its stroke and its point shape, hidden from assistive technology (the name follows it). */
export function lineSwatch(index: number): SafeHtml {
  const style = styleOf(index);
  return html`<svg class="swatch line-${style}" viewBox="0 0 24 10" aria-hidden="true" focusable="false"><path class="stroke" d="M1 5H23"></path><g class="points">${pointMark(style, 12, 5)}</g></svg>`;
}

/**
 * A line chart over time drawn on the server as inline SVG (docs/decisions/0018-interactive-parts-drawn-on-the-server.md),
 * as `barChart` is: one image with a title and a description for assistive technology, colours from the
 * stylesheet by class, the same numbers in a table behind a disclosure. Lines differ by colour, dash and
 * point shape (a legend names them); marks (releases) are numbered rules across the plot, named in the
 * table's last column and in the list the page shows beside the charts.
 */
export function lineChart(chart: LineChart): SafeHtml {
  const { id, buckets, lines, marks } = chart;
  const start = chart.from.getTime();
  const span = Math.max(1, chart.to.getTime() - start);
  const plotWidth = WIDTH - LEFT - RIGHT;
  const baseline = HEIGHT - BOTTOM;
  const max = Math.max(0, ...lines.flatMap((line) => line.values.filter((v): v is number => v !== null)));
  const xOf = (time: number) => round(LEFT + (Math.min(Math.max(time, start), start + span) - start) / span * plotWidth);
  const yOf = (value: number) => round(max === 0 ? baseline : baseline - (value / max) * (baseline - TOP));
  // A bucket's point sits in its middle; the first and the last bucket are cut by the window's ends.
  const middle = (at: Date) => (Math.max(at.getTime(), start) + Math.min(at.getTime() + chart.bucketMs, start + span)) / 2;

  const drawn = lines.map((line, index) => {
    const style = styleOf(index);
    const points = buckets.flatMap((at, i) => {
      const value = line.values[i];
      return value === null || value === undefined ? [] : [{ i, x: xOf(middle(at)), y: yOf(value) }];
    });
    // A gap where nothing was measured: the line stops and starts again.
    const path = points.map((p, k) => `${k > 0 && points[k - 1]!.i === p.i - 1 ? 'L' : 'M'}${p.x} ${p.y}`).join('');
    return html`<g class="line-${style}">${path === '' ? '' : html`<path class="stroke" d="${path}"></path>`}<g class="points">${points.map((p) => pointMark(style, p.x, p.y))}</g></g>`;
  });
  const rules = marks.map((mark, index) => {
    const x = xOf(mark.at.getTime());
    return html`<line class="mark" x1="${x}" y1="${TOP - 4}" x2="${x}" y2="${baseline}"></line><text class="mark-label" x="${x}" y="${TOP - 7}">${index + 1}</text>`;
  });
  const labelEvery = Math.ceil(buckets.length / MAX_AXIS_LABELS);
  const axisLabels = buckets.flatMap((at, i) =>
    // Counted from the newest bucket, so the latest one is always labelled.
    (buckets.length - 1 - i) % labelEvery === 0 ? [html`<text class="axis-label" x="${xOf(middle(at))}" y="${HEIGHT - 6}">${chart.axisName(at)}</text>`] : [],
  );
  const marksIn = (at: Date) => marks.flatMap((mark, index) => (mark.at >= at && mark.at.getTime() < at.getTime() + chart.bucketMs ? [`${index + 1}: ${mark.name}`] : []));
  const markKind = chart.markKind ?? { legend: 'release (numbered as listed)', column: 'Releases' };
  const cell = (value: number | null | undefined) => (value === null || value === undefined ? '—' : chart.format(value));

  return html`<div class="chart line-chart">
<svg role="img" aria-labelledby="${id}-title" aria-describedby="${id}-desc" viewBox="0 0 ${WIDTH} ${HEIGHT}"><title id="${id}-title">${chart.title}</title><desc id="${id}-desc">${chart.description}</desc>
<line class="grid" x1="${LEFT}" y1="${TOP}" x2="${WIDTH - RIGHT}" y2="${TOP}"></line><text class="value-label" x="${LEFT - 4}" y="${TOP + 4}">${chart.format(max)}</text><text class="value-label" x="${LEFT - 4}" y="${baseline + 4}">${chart.format(0)}</text>
${drawn}${rules}<line class="axis" x1="${LEFT}" y1="${baseline}" x2="${WIDTH - RIGHT}" y2="${baseline}"></line>${axisLabels}</svg>
${lines.length === 0 ? '' : html`<ul class="legend" aria-label="${chart.title}: lines">${lines.map((line, index) => html`<li>${lineSwatch(index)}${line.name}</li>`)}${marks.length === 0 ? '' : html`<li><svg class="swatch" viewBox="0 0 24 10" aria-hidden="true" focusable="false"><line class="mark" x1="12" y1="0" x2="12" y2="10"></line></svg>${markKind.legend}</li>`}</ul>`}
<details><summary>${chart.title} as a table</summary>
<table><thead><tr><th scope="col">${chart.timeColumn}</th>${lines.map((line) => html`<th scope="col">${line.name}</th>`)}${marks.length === 0 ? '' : html`<th scope="col">${markKind.column}</th>`}</tr></thead>
<tbody>${buckets.map((at, i) => html`<tr><th scope="row">${chart.timeName(at)}</th>${lines.map((line) => html`<td>${cell(line.values[i])}</td>`)}${marks.length === 0 ? '' : html`<td>${marksIn(at).join('; ')}</td>`}</tr>`)}</tbody></table></details>
</div>`;
}
