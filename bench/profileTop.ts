/**
 * The functions with the most self time in a V8 `.cpuprofile` (as `node --cpu-prof` writes):
 * `node dist-bench/bench/profileTop.js FILE [FROM_NS TO_NS]`. The optional window is in
 * process.hrtime nanoseconds (CLOCK_MONOTONIC, which V8's profile timestamps also use), so a
 * profile of a whole process can be narrowed to the seconds a load ran.
 */
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { fileURLToPath } from 'node:url';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
}

interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

export interface SelfTime {
  name: string;
  where: string;
  selfMs: number;
  percent: number;
}

export interface ProfileSummary {
  /** Time covered by the samples counted, in ms. */
  sampledMs: number;
  samples: number;
  /** Whether the window overlapped the profile (else the whole profile was counted). */
  windowed: boolean;
  top: SelfTime[];
}

/** Sums each function's self time (samples weighted by their time delta), optionally within [fromNs, toNs]. */
export function topSelfTime(profile: CpuProfile, count = 15, window?: { fromNs: bigint; toNs: bigint }): ProfileSummary {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const fromUs = window ? Number(window.fromNs / 1000n) : Number.NEGATIVE_INFINITY;
  const toUs = window ? Number(window.toNs / 1000n) : Number.POSITIVE_INFINITY;
  const windowed = window !== undefined && fromUs < profile.endTime && toUs > profile.startTime;
  const self = new Map<string, { name: string; where: string; us: number }>();
  let total = 0;
  let samples = 0;
  let at = profile.startTime;
  for (let i = 0; i < profile.samples.length; i++) {
    const delta = profile.timeDeltas[i] ?? 0;
    at += delta;
    if (windowed && (at < fromUs || at > toUs)) continue;
    // A sample's weight is the time until the next one (the last sample gets the previous delta).
    const weight = profile.timeDeltas[i + 1] ?? delta;
    const frame = byId.get(profile.samples[i]!)?.callFrame;
    if (!frame) continue;
    const name = frame.functionName || '(anonymous)';
    const where = frame.url ? `${shortUrl(frame.url)}:${frame.lineNumber + 1}` : '';
    const key = `${name} ${where}`;
    const entry = self.get(key) ?? { name, where, us: 0 };
    entry.us += weight;
    self.set(key, entry);
    total += weight;
    samples++;
  }
  const top = [...self.values()]
    .sort((a, b) => b.us - a.us)
    .slice(0, count)
    .map((e) => ({ name: e.name, where: e.where, selfMs: e.us / 1000, percent: total ? (100 * e.us) / total : 0 }));
  return { sampledMs: total / 1000, samples, windowed, top };
}

/** `node_modules/<pkg>/…/file.js` or the file's last two path parts. */
function shortUrl(url: string): string {
  const path = url.replace(/^file:\/\//, '');
  const nm = path.lastIndexOf('node_modules/');
  if (nm >= 0) return path.slice(nm + 'node_modules/'.length);
  const dist = path.lastIndexOf('/dist/');
  if (dist >= 0) return path.slice(dist + 1);
  return path.startsWith('node:') ? path : basename(path);
}

export function readProfile(file: string): CpuProfile {
  return JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
}

export function formatTop(summary: ProfileSummary): string {
  const lines = [
    `${summary.samples} samples, ${summary.sampledMs.toFixed(0)} ms${summary.windowed ? ' (the load window)' : ' (the whole profile)'}; top by self time:`,
  ];
  for (const e of summary.top)
    lines.push(`  ${e.percent.toFixed(1).padStart(5)}%  ${e.selfMs.toFixed(0).padStart(6)} ms  ${e.name}${e.where ? `  ${e.where}` : ''}`);
  return lines.join('\n');
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const [file, from, to] = process.argv.slice(2);
  if (!file) {
    process.stderr.write('usage: node dist-bench/bench/profileTop.js FILE.cpuprofile [FROM_NS TO_NS]\n');
    process.exit(2);
  }
  const window = from && to ? { fromNs: BigInt(from), toNs: BigInt(to) } : undefined;
  process.stdout.write(`${formatTop(topSelfTime(readProfile(file), 15, window))}\n`);
}
