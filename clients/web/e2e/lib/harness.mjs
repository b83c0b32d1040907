// A tiny sequential test runner: named async tests, a line per result, a closing summary line
// "N passed, N failed", non-zero exit when anything failed. A test may name server features it
// needs (test(name, {needs: ['events']}, fn)); when the server under test lacks one, the test is
// not run and a loud SKIP line says which endpoint answered what (never a silent pass).
const tests = [];
export function test(name, opts, fn) {
  if (typeof opts === 'function') [fn, opts] = [opts, {}];
  tests.push({ name, fn, needs: opts.needs ?? [] });
}

export async function runAll(ctx, { only } = {}) {
  let passed = 0;
  let failed = 0;
  const skipped = [];
  for (const t of tests) {
    if (only && !t.name.includes(only)) continue;
    const missing = [];
    for (const n of t.needs) {
      const why = await ctx.probe(n);
      if (why) missing.push(why);
    }
    if (missing.length) {
      skipped.push(t.name);
      console.log(`SKIP ${t.name}\n     the server under test lacks: ${missing.join('; ')}`);
      continue;
    }
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
  return { passed, failed, skipped };
}

export function assert(cond, msg) {
  if (!cond) throw new Error(`assertion failed: ${msg}`);
}

export function assertEqual(a, b, msg) {
  const sa = JSON.stringify(a);
  const sb = JSON.stringify(b);
  if (sa !== sb) throw new Error(`${msg}: expected ${sb}, got ${sa}`);
}
