/**
 * Keeps only the samples of a V8 .cpuprofile taken within a window of the
 * monotonic clock (µs, as `process.hrtime.bigint() / 1000n` reads it in any
 * process on Linux, the clock V8 stamps samples with), so a profile written at
 * exit shows the serving phase without the start-up.
 *   node bench/delivery/profile-window.ts <in> <out> <fromMicros> <toMicros>
 */
import { readFileSync, writeFileSync } from 'node:fs';

interface Profile {
  nodes: unknown[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

export function cropProfile(profile: Profile, from: number, to: number): Profile {
  const samples: number[] = [];
  const timeDeltas: number[] = [];
  let at = profile.startTime;
  let last = from;
  profile.samples.forEach((id, i) => {
    at += profile.timeDeltas[i] ?? 0;
    if (at < from || at > to) return;
    samples.push(id);
    timeDeltas.push(at - last);
    last = at;
  });
  return { ...profile, startTime: from, endTime: to, samples, timeDeltas };
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].replace(/^.*\//, ''))) {
  const [input, output, from, to] = process.argv.slice(2);
  if (!input || !output || !from || !to) throw new Error('usage: profile-window.ts <in.cpuprofile> <out.cpuprofile> <fromMicros> <toMicros>');
  const cropped = cropProfile(JSON.parse(readFileSync(input, 'utf8')) as Profile, Number(from), Number(to));
  writeFileSync(output, JSON.stringify(cropped));
  process.stdout.write(`${cropped.samples.length} samples kept\n`);
}
