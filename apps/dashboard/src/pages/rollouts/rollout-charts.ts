import { histogramPercentile, percentOf, type GuardWindow, type Rollout, type UsageBucket } from '@cp/domain';
import { html, type SafeHtml } from '@cp/web-forms';
import { lineChart, type Line, type TimeMark } from '../charts/line-chart.js';
import { listTable } from '../parts/list-table.js';
import { count, ms, rate, utcMinute } from '../usage/format.js';

export interface RolloutChartsInput {
  readonly rollout: Rollout;
  /** The guard's windows, oldest first. */
  readonly windows: readonly GuardWindow[];
  /** Render rollups of the component over [from, to) (the usage reader's series), every environment and variant. */
  readonly renders: readonly UsageBucket[];
  readonly from: Date;
  readonly to: Date;
  readonly bucketSeconds: number;
  /** "v7" for the candidate, "v6" for the release it is judged against. */
  readonly candidate: string;
  readonly release: string;
}

const VERDICTS: Readonly<Record<GuardWindow['verdict'], string>> = {
  healthy: 'healthy',
  regressed: 'regressed',
  sample_ratio_mismatch: 'sample-ratio mismatch (paused)',
};

const sessionRate = (arm: GuardWindow['candidate']): number | null => (arm.sessions === 0 ? null : arm.errorSessions / arm.sessions);
const hourMinute = (at: Date) => at.toISOString().slice(11, 16);

/**
 * Per arm, the figures the guard judged: sessions and session error rate per window (a point at each
 * window's start: windows close on a number of sessions, not on the clock), render time p75 of the two
 * variants over the rollout's time, and each window's verdict as a table. The charts are the usage
 * tab's (server-drawn SVG with the numbers as a table).
 */
export function rolloutCharts(c: RolloutChartsInput): SafeHtml {
  const names = { candidate: `${c.candidate} (candidate)`, release: `${c.release} (release)` };
  const windowCharts = (): SafeHtml => {
    const first = c.windows[0]!;
    const last = c.windows[c.windows.length - 1]!;
    const common = {
      from: first.from,
      to: last.to,
      buckets: c.windows.map((w) => w.from),
      bucketMs: 0,
      marks: [],
      timeColumn: 'Window from (UTC)',
      timeName: utcMinute,
      axisName: hourMinute,
    };
    const sessions: Line[] = [
      { name: names.candidate, values: c.windows.map((w) => w.candidate.sessions) },
      { name: names.release, values: c.windows.map((w) => w.release.sessions) },
    ];
    const rates: Line[] = [
      { name: names.candidate, values: c.windows.map((w) => sessionRate(w.candidate)) },
      { name: names.release, values: c.windows.map((w) => sessionRate(w.release)) },
    ];
    const summary = `${c.windows.length} ${c.windows.length === 1 ? 'window' : 'windows'} from ${utcMinute(first.from)} to ${utcMinute(last.to)}`;
    return html`<h3>Sessions per window</h3>
${lineChart({ ...common, id: 'sessions-chart', title: 'Sessions per window', description: `Sessions of each arm in each of ${summary}: the candidate ${count(sessions[0]!.values.reduce<number>((s, v) => s + (v ?? 0), 0))}, the release ${count(sessions[1]!.values.reduce<number>((s, v) => s + (v ?? 0), 0))} in all.`, lines: sessions, format: count })}
<h3>Session error rate per window</h3>
${lineChart({ ...common, id: 'error-rate-chart', title: 'Session error rate per window', description: `Share of each arm's sessions that reported an error, in each of ${summary}.`, lines: rates, format: (v) => rate(v) })}`;
  };

  const width = c.bucketSeconds * 1000;
  const buckets: Date[] = [];
  for (let at = Math.floor(c.from.getTime() / width) * width; at < c.to.getTime(); at += width) buckets.push(new Date(at));
  const p75Of = (variantId: string): Line['values'] =>
    buckets.map((at) => {
      const bucket = c.renders.find((b) => b.type === 'render' && b.environment === c.rollout.environmentName && b.variantId === variantId && b.at.getTime() === at.getTime());
      return bucket === undefined || bucket.count === 0 ? null : histogramPercentile(bucket.histogram, 0.75);
    });
  const p75: Line[] = [
    { name: names.candidate, values: p75Of(c.rollout.candidateVariantId) },
    { name: names.release, values: p75Of(c.rollout.baselineVariantId) },
  ];
  const marks: TimeMark[] = [
    { at: c.rollout.startedAt, name: 'rollout started' },
    ...(c.rollout.stageStartedAt > c.rollout.startedAt ? [{ at: c.rollout.stageStartedAt, name: `stage ${c.rollout.stageIndex + 1} started` }] : []),
    ...(c.rollout.endedAt === null ? [] : [{ at: c.rollout.endedAt, name: `rollout ${c.rollout.state.replace('_', ' ')}` }]),
  ];
  const measured = p75.filter((line) => line.values.some((v) => v !== null));
  const hourly = c.bucketSeconds === 3600 ? 'per hour' : c.bucketSeconds === 21_600 ? 'per 6 hours' : 'per day';

  return html`<h2 id="figures">Figures per arm</h2>
${c.windows.length === 0
  ? html`<p class="hint">No window closed yet: the guard closes one every ${count(c.rollout.guard.windowSessions)} candidate sessions.</p>`
  : windowCharts()}
<h3>Render time, 75th percentile</h3>
${lineChart({
  id: 'rollout-p75-chart',
  title: 'Render time p75 per arm',
  description:
    measured.length === 0
      ? `No render of ${c.candidate} or ${c.release} in ${c.rollout.environmentName} since the rollout started.`
      : `Render time p75 ${hourly} of each arm in ${c.rollout.environmentName} since the rollout started: ${measured.map((line) => `${line.name} at most ${ms(Math.max(...line.values.filter((v): v is number => v !== null)))}`).join(', ')}.`,
  from: c.from,
  to: c.to,
  buckets,
  bucketMs: width,
  marks,
  markKind: { legend: 'rollout event (numbered as listed)', column: 'Rollout events' },
  lines: p75,
  timeColumn: 'Hour from (UTC)',
  timeName: utcMinute,
  axisName: hourMinute,
  format: (v) => ms(v),
})}
<ol class="releases">${marks.map((mark) => html`<li>${mark.name}, ${utcMinute(mark.at)}</li>`)}</ol>
<h2 id="verdicts">The guard's verdicts</h2>
${listTable({
  columns: ['Window', 'From', 'To', 'Weight', `${c.candidate} sessions (with errors)`, `${c.release} sessions (with errors)`, 'Rise', 'z', 'Sample ratio p', 'Verdict'],
  rows: c.windows.map(
    (w) => html`<tr><th scope="row">${w.index + 1}</th><td>${utcMinute(w.from)}</td><td>${utcMinute(w.to)}</td><td>${percentOf(w.weight)}</td><td>${count(w.candidate.sessions)} (${count(w.candidate.errorSessions)})</td><td>${count(w.release.sessions)} (${count(w.release.errorSessions)})</td><td>${(w.rise * 100).toFixed(2)} pp</td><td>${w.z.toFixed(2)}</td><td>${w.sampleRatioP.toExponential(1)}</td><td>${VERDICTS[w.verdict]}</td></tr>`,
  ),
  empty: html`<p class="hint">No verdict yet.</p>`,
})}`;
}
