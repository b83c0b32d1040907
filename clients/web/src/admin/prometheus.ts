// A small parser for the Prometheus text format of /metrics (enough for the dashboard): samples
// by name, with their labels. Comments (# HELP / # TYPE) and malformed lines are skipped.
export type Sample = { name: string; labels: Record<string, string>; value: number };

export function parsePrometheus(text: string): Sample[] {
  const out: Sample[] = [];
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (!line || line.startsWith('#')) continue;
    const m = line.match(/^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{(.*)\})?\s+(\S+)(\s+\d+)?$/);
    if (!m) continue;
    const labels: Record<string, string> = {};
    if (m[3]) {
      for (const l of m[3].matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)) labels[l[1]] = l[2].replace(/\\(.)/g, (_, c) => (c === 'n' ? '\n' : c));
    }
    const v = m[4] === '+Inf' ? Infinity : m[4] === '-Inf' ? -Infinity : Number(m[4]);
    if (Number.isNaN(v) && m[4] !== 'NaN') continue;
    out.push({ name: m[1], labels, value: v });
  }
  return out;
}

// The first sample of a metric without labels (gauges and counters), or undefined.
export function metric(samples: Sample[], name: string): number | undefined {
  return samples.find((s) => s.name === name && Object.keys(s.labels).length === 0)?.value;
}

// label value → sample value for one metric, e.g. xq_errors_total by code.
export function byLabel(samples: Sample[], name: string, label: string): Record<string, number> {
  const out: Record<string, number> = {};
  for (const s of samples) if (s.name === name && s.labels[label] !== undefined) out[s.labels[label]] = (out[s.labels[label]] ?? 0) + s.value;
  return out;
}
