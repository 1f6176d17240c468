// An official TypeScript MCP client (pinned by the Makefile's tools-node)
// driving one server in one protocol era over one transport. cmd/mcpfleet's TestOfficialTypeScriptClient runs it: the run
// description is argv[2] (JSON), the report one JSON line on stdout:
// {"steps":[{"step":"...","ok":true|false,"detail":"..."}]}.
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

// The packages live in .tools/mcpclient (MCP_CLIENT_DIR), not beside this
// file. run.sdk picks the client: "client" is @modelcontextprotocol/client
// (the TypeScript SDK's v2 client, both eras); "sdk" is
// @modelcontextprotocol/sdk 1.x, the most deployed TypeScript client, which
// speaks protocol versions up to 2025-11-25 only.
const run = JSON.parse(process.argv[2]);
const modules = join(process.env.MCP_CLIENT_DIR, 'node_modules/@modelcontextprotocol');
const load = (path) => import(pathToFileURL(join(modules, path)));
const v1 = run.sdk === 'sdk';
let Client, StreamableHTTPClientTransport, StdioClientTransport, ResourceUpdatedNotificationSchema;
if (v1) {
  ({ Client } = await load('sdk/dist/esm/client/index.js'));
  ({ StreamableHTTPClientTransport } = await load('sdk/dist/esm/client/streamableHttp.js'));
  ({ StdioClientTransport } = await load('sdk/dist/esm/client/stdio.js'));
  ({ ResourceUpdatedNotificationSchema } = await load('sdk/dist/esm/types.js'));
} else {
  ({ Client, StreamableHTTPClientTransport } = await load('client/dist/index.mjs'));
  ({ StdioClientTransport } = await load('client/dist/stdio.mjs'));
}

const steps = [];
const ok = (step, detail = '') => steps.push({ step, ok: true, detail });
const fail = (step, detail) => steps.push({ step, ok: false, detail: String(detail).slice(0, 800) });
const text = (v) => JSON.stringify(v);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

const modern = run.era >= '2026-07-28';
const client = v1
  ? new Client({ name: 'mcpfleet-interop-ts', version: '1' }, { capabilities: {} })
  : new Client({ name: 'mcpfleet-interop-ts', version: '1' }, {
    capabilities: {},
    versionNegotiation: { mode: modern ? { pin: run.era } : 'legacy' },
  });
// callTool's request options: the v1 client takes a result schema first.
const callTool = (params, options) => (v1 ? client.callTool(params, undefined, options) : client.callTool(params, options));
const updates = new Map();
client.setNotificationHandler(v1 ? ResourceUpdatedNotificationSchema : 'notifications/resources/updated', (n) => {
  updates.set(n.params.uri, (updates.get(n.params.uri) ?? 0) + 1);
});
const errors = [];
client.onerror = (e) => errors.push(String(e));

function transport() {
  if (run.transport === 'http') {
    return new StreamableHTTPClientTransport(new URL(run.url), {
      requestInit: { headers: { Authorization: `Bearer ${run.token}` } },
    });
  }
  return new StdioClientTransport({ command: run.command, args: [], env: run.env, stderr: 'ignore' });
}

async function call(step, c, wantError) {
  try {
    const res = await callTool({ name: c.tool, arguments: c.args });
    const body = text(res);
    if (Boolean(res.isError) !== wantError || !body.includes(c.want)) {
      fail(step, `${c.tool}: isError ${Boolean(res.isError)} (want ${wantError}), want ${JSON.stringify(c.want)} in ${body.slice(0, 500)}`);
      return null;
    }
    ok(step);
    return res;
  } catch (e) {
    fail(step, `${c.tool}: protocol error ${e}`);
    return null;
  }
}

async function resources() {
  if (!client.getServerCapabilities()?.resources) return;
  try {
    const list = await client.listResources();
    await client.listResourceTemplates();
    if (list.resources.length > 0) {
      const uri = list.resources[0].uri;
      const got = await client.readResource({ uri });
      if (!got.contents?.length) throw new Error(`${uri}: no contents`);
    }
    ok('resources');
  } catch (e) {
    fail('resources', e);
  }
  try {
    await client.readResource({ uri: 'nosuch://resource' }, { cacheMode: 'bypass' });
    fail('resources/read unknown', 'nosuch://resource was read');
  } catch {
    ok('resources/read unknown');
  }
}

// liveFeed: resources/updated after subscribe_market_feeds, through
// resources/subscribe (2025-11-25) or subscriptions/listen (2026-07-28).
async function liveFeed() {
  await call('subscribe_market_feeds', { tool: 'subscribe_market_feeds', args: { instruments: ['NSE|22'] }, want: 'NSE' }, false);
  const one = 'shoonya://feed/NSE/22';
  const all = 'shoonya://feed';
  let sub = null;
  try {
    if (modern) {
      sub = await client.listen({ resourceSubscriptions: [one, all] });
      const honored = sub.honoredFilter?.resourceSubscriptions ?? [];
      if (!honored.includes(one) || !honored.includes(all)) throw new Error(`honored ${text(sub.honoredFilter)}`);
    } else {
      await client.subscribeResource({ uri: one });
      await client.subscribeResource({ uri: all });
    }
    ok('subscribe');
  } catch (e) {
    fail('subscribe', e);
    return;
  }
  try {
    if (modern) {
      // Refused (an error) or left out of the acknowledged filter: both say
      // the URI is not watched; acknowledging it is the failure.
      let honored = [];
      try {
        const bad = await client.listen({ resourceSubscriptions: ['shoonya://nosuch'] });
        honored = bad.honoredFilter?.resourceSubscriptions ?? [];
        await bad.close();
      } catch { /* refused */ }
      if (honored.includes('shoonya://nosuch')) throw new Error('shoonya://nosuch was acknowledged');
    } else {
      let accepted = true;
      try { await client.subscribeResource({ uri: 'shoonya://nosuch' }); } catch { accepted = false; }
      if (accepted) throw new Error('shoonya://nosuch was accepted');
    }
    ok('subscribe unknown URI');
  } catch (e) {
    fail('subscribe unknown URI', e);
  }
  // The fake ticks every 100 ms: none in 30 s is a feed that never reaches
  // this client.
  for (let i = 0; i < 600; i++) {
    if ((updates.get(one) ?? 0) >= 3 && (updates.get(all) ?? 0) >= 1) break;
    await sleep(50);
  }
  if ((updates.get(one) ?? 0) >= 3 && (updates.get(all) ?? 0) >= 1) ok('resources/updated');
  else fail('resources/updated', `${updates.get(one) ?? 0} updates of ${one}, ${updates.get(all) ?? 0} of ${all}`);
  try {
    if (sub) await sub.close();
    else {
      await client.unsubscribeResource({ uri: one });
      await client.unsubscribeResource({ uri: all });
    }
    ok('unsubscribe');
  } catch (e) {
    fail('unsubscribe', e);
  }
}

async function startLoad() {
  const res = await call('trigger_data_loading', { tool: 'trigger_data_loading', args: { symbol: 'AAPL', timeframe: '1h', mode: 'tail' }, want: 'operation_id' }, false);
  return res?.structuredContent?.operation_id ?? null;
}

// progress: every notifications/progress before the result (the SDK drops
// later ones), the last one at 100 for a finished operation.
async function progress() {
  const id = await startLoad();
  if (!id) return;
  const got = [];
  try {
    const res = await callTool({ name: 'wait_for_operation', arguments: { operation_id: id, timeout_seconds: 60 } },
      { onprogress: (p) => got.push(p.progress) });
    if (res.isError) throw new Error(text(res).slice(0, 400));
    if (got.length === 0 || got[got.length - 1] !== 100) throw new Error(`progress before the result: ${text(got)}`);
    for (let i = 1; i < got.length; i++) if (got[i] <= got[i - 1]) throw new Error(`progress did not increase: ${text(got)}`);
    ok('progress');
  } catch (e) {
    fail('progress', e);
  }
}

// cancellation: aborting wait_for_operation returns at once; the session
// keeps working.
async function cancellation() {
  const id = await startLoad();
  if (!id) return;
  const ac = new AbortController();
  try {
    await callTool({ name: 'wait_for_operation', arguments: { operation_id: id, timeout_seconds: 60 } },
      { signal: ac.signal, onprogress: () => ac.abort('interop cancels') });
    fail('cancellation', 'the cancelled call resolved');
  } catch (e) {
    if (ac.signal.aborted) ok('cancellation');
    else fail('cancellation', e);
  }
  await call('call after cancellation', run.plan.valid, false);
}

// searchProgress: a slow web search (the fake spreads its events over 3 s)
// sends progress notifications, "searching: …" among them, before its
// result, so a client that extends its timeout on progress keeps waiting.
async function searchProgress() {
  const query = `UAE central bank ${run.sdk} ${run.era} ${run.transport}`;
  const got = [];
  try {
    const f = await fetch(`${run.fake}/_fake/faults`, { method: 'POST', body: JSON.stringify({ streamMs: 3000, count: 1 }) });
    if (!f.ok) throw new Error(`fake faults: ${f.status}`);
    const res = await callTool({ name: 'search_web', arguments: { query } },
      { onprogress: (p) => got.push(p.message ?? ''), timeout: 60000 });
    if (res.isError) throw new Error(text(res).slice(0, 400));
    if (!got.some((m) => m.startsWith('searching:'))) throw new Error(`progress before the result: ${text(got)}`);
    ok('search progress');
  } catch (e) {
    fail('search progress', e);
  }
}

async function main() {
  try {
    await client.connect(transport());
    // The v1 client has no accessor for the version; it speaks 2025-11-25 at most.
    const v = v1 ? run.era : client.getNegotiatedProtocolVersion();
    if (v !== run.era) throw new Error(`negotiated ${v}`);
    ok('connect');
  } catch (e) {
    fail('connect', e);
    return;
  }
  const caps = client.getServerCapabilities() ?? {};
  const sub = Boolean(caps.resources?.subscribe);
  if (sub !== run.plan.subscribable) fail('capabilities', `resources.subscribe is ${sub}; want ${run.plan.subscribable}`);
  else ok('capabilities');
  try {
    const tools = await client.listTools();
    if (!tools.tools.length) throw new Error('no tools');
    ok('tools/list');
  } catch (e) {
    fail('tools/list', e);
  }
  await call('call valid', run.plan.valid, false);
  await call('call invalid', run.plan.invalid, true);
  try {
    await callTool({ name: 'no_such_tool', arguments: {} });
    fail('call unknown tool', 'no error');
  } catch (e) {
    if (String(e).includes('unknown tool')) ok('call unknown tool');
    else fail('call unknown tool', e);
  }
  await resources();
  if (run.server === 'shoonya') await liveFeed();
  if (run.server === 'ktrdr') {
    await progress();
    await cancellation();
  }
  if (run.server === 'web-search') await searchProgress();
  try {
    await client.listTools({}, { cacheMode: 'bypass' });
    ok('tools/list at the end');
  } catch (e) {
    fail('tools/list at the end', e);
  }
}

try {
  await main();
} finally {
  try { await client.close(); } catch (e) { fail('close', e); }
  process.stdout.write(JSON.stringify({ steps, errors }) + '\n');
  process.exit(0);
}
