/**
 * Where the CPU goes in a V8 .cpuprofile: self time by package and by function,
 * optionally inclusive time (self + callees) and the call stacks of one function.
 *   node --import tsx bench/mcp/profile-summary.ts <file> [--top 40] [--inclusive] [--callers <functionName>]
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
const { values: flags, positionals } = parseArgs({
  allowPositionals: true,
  options: { top: { type: 'string', default: '40' }, inclusive: { type: 'boolean', default: false }, callers: { type: 'string' } },
});
const file = positionals[0];
if (!file) throw new Error('usage: profile-summary.ts <file.cpuprofile> [--top 40] [--inclusive] [--callers <functionName>]');
const profile = JSON.parse(readFileSync(file, 'utf8')) as { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[] };
const top = Number(flags.top);

const byId = new Map(profile.nodes.map((node) => [node.id, node]));
const self = new Map<number, number>();
profile.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
const total = [...self.values()].reduce((a, b) => a + b, 0);

/** "pkg@version" for node_modules, the workspace path otherwise. */
const origin = (url: string): string => {
  const pnpm = /node_modules\/\.pnpm\/[^/]+\/node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pnpm) return pnpm[1]!;
  const work = /\/work\/[^/]+\/((?:apps|packages|bench)\/[^/]+)/.exec(url);
  if (work) return work[1]!;
  return url === '' ? '(native/vm)' : url.startsWith('node:') ? 'node:internal' : url.replace(/^.*\//, '');
};

const fn = new Map<string, number>();
const pkg = new Map<string, number>();
for (const [id, micros] of self) {
  const node = byId.get(id)!;
  const { functionName, url, lineNumber } = node.callFrame;
  const key = `${functionName || '(anonymous)'}  ${origin(url)}:${lineNumber + 1}`;
  fn.set(key, (fn.get(key) ?? 0) + micros);
  pkg.set(origin(url), (pkg.get(origin(url)) ?? 0) + micros);
}
const print = (title: string, map: Map<string, number>, n: number) => {
  console.log(`\n${title}`);
  for (const [key, micros] of [...map].sort((a, b) => b[1] - a[1]).slice(0, n)) {
    console.log(`${((micros / total) * 100).toFixed(1).padStart(5)}%  ${(micros / 1000).toFixed(0).padStart(7)} ms  ${key}`);
  }
};
console.log(`total sampled: ${(total / 1000).toFixed(0)} ms`);
print('by package (self time)', pkg, 25);
print('by function (self time)', fn, top);

// --callers: the stacks (up to 8 frames) under which one function spent its self time.
const focus = flags.callers;
if (focus) {
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const stacks = new Map<string, number>();
  for (const [id, micros] of self) {
    if (byId.get(id)!.callFrame.functionName !== focus) continue;
    const frames: string[] = [];
    for (let at = parent.get(id); at !== undefined && frames.length < 8; at = parent.get(at)) {
      const { functionName, url, lineNumber } = byId.get(at)!.callFrame;
      frames.push(`${functionName || '(anon)'}@${origin(url)}:${lineNumber + 1}`);
    }
    const key = frames.join(' < ');
    stacks.set(key, (stacks.get(key) ?? 0) + micros);
  }
  print(`callers of ${focus}`, stacks, 10);
}

// --inclusive: total time (self + callees) by function, recursion counted once.
if (flags.inclusive) {
  const inclusive = new Map<string, number>();
  const keyOf = (node: ProfileNode) => `${node.callFrame.functionName || '(anonymous)'}  ${origin(node.callFrame.url)}:${node.callFrame.lineNumber + 1}`;
  const walk = (id: number, onStack: Set<string>): number => {
    const node = byId.get(id)!;
    let sum = self.get(id) ?? 0;
    const key = keyOf(node);
    const fresh = !onStack.has(key);
    if (fresh) onStack.add(key);
    for (const child of node.children ?? []) sum += walk(child, onStack);
    if (fresh) {
      onStack.delete(key);
      inclusive.set(key, (inclusive.get(key) ?? 0) + sum);
    }
    return sum;
  };
  walk(profile.nodes[0]!.id, new Set());
  print('by function (inclusive)', inclusive, top);
}
