// A tiny sequential test runner: named async tests, a line per result, a closing summary line
// "N passed, N failed", non-zero exit when anything failed.
const tests = [];
export function test(name, fn) {
  tests.push({ name, fn });
}

export async function runAll(ctx, { only } = {}) {
  let passed = 0;
  let failed = 0;
  for (const t of tests) {
    if (only && !t.name.includes(only)) continue;
    const t0 = Date.now();
    ctx.contexts = []; // browser contexts opened by this test, closed after it (and its failure shots)
    try {
      await t.fn(ctx);
      passed++;
      console.log(`ok   ${t.name} (${((Date.now() - t0) / 1000).toFixed(1)} s)`);
    } catch (e) {
      failed++;
      console.log(`FAIL ${t.name} (${((Date.now() - t0) / 1000).toFixed(1)} s)\n     ${String(e?.stack ?? e).split('\n').join('\n     ')}`);
      if (ctx.onFailure) await ctx.onFailure(t.name).catch(() => {});
    }
    for (const c of ctx.contexts) await c.close().catch(() => {});
  }
  return { passed, failed };
}

export function assert(cond, msg) {
  if (!cond) throw new Error(`assertion failed: ${msg}`);
}

export function assertEqual(a, b, msg) {
  const sa = JSON.stringify(a);
  const sb = JSON.stringify(b);
  if (sa !== sb) throw new Error(`${msg}: expected ${sb}, got ${sa}`);
}
