// An official TypeScript MCP client whose tool calls carry a W3C trace
// context, for cmd/mcpfleet's TestTypeScriptTraceContinues: in params._meta
// under the key the SDK exports for it (TRACEPARENT_META_KEY, SEP-414) or,
// for the 1.x client, as the traceparent HTTP header on every request. The
// run description is argv[2] (JSON); the report one JSON line on stdout:
// {"steps":[{"step":"...","ok":true|false,"detail":"..."}]}.
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const run = JSON.parse(process.argv[2]);
const modules = join(process.env.MCP_CLIENT_DIR, 'node_modules/@modelcontextprotocol');
const load = (path) => import(pathToFileURL(join(modules, path)));
const v1 = run.sdk === 'sdk';
let Client, StreamableHTTPClientTransport, StdioClientTransport, TRACEPARENT_META_KEY = 'traceparent';
if (v1) {
  ({ Client } = await load('sdk/dist/esm/client/index.js'));
  ({ StreamableHTTPClientTransport } = await load('sdk/dist/esm/client/streamableHttp.js'));
  ({ StdioClientTransport } = await load('sdk/dist/esm/client/stdio.js'));
} else {
  ({ Client, StreamableHTTPClientTransport, TRACEPARENT_META_KEY } = await load('client/dist/index.mjs'));
  ({ StdioClientTransport } = await load('client/dist/stdio.mjs'));
}

const steps = [];
const ok = (step, detail = '') => steps.push({ step, ok: true, detail });
const fail = (step, detail) => steps.push({ step, ok: false, detail: String(detail).slice(0, 800) });

const modern = run.era >= '2026-07-28';
const client = v1
  ? new Client({ name: 'mcpfleet-trace-ts', version: '1' }, { capabilities: {} })
  : new Client({ name: 'mcpfleet-trace-ts', version: '1' }, {
    capabilities: {},
    versionNegotiation: { mode: modern ? { pin: run.era } : 'legacy' },
  });

function transport() {
  if (run.transport === 'http') {
    const headers = { Authorization: `Bearer ${run.token}` };
    if (run.carrier === 'header') headers.traceparent = run.traceparent;
    return new StreamableHTTPClientTransport(new URL(run.url), { requestInit: { headers } });
  }
  return new StdioClientTransport({ command: run.command, args: [], env: run.env, stderr: 'ignore' });
}

async function main() {
  try {
    await client.connect(transport());
    ok('connect');
  } catch (e) {
    fail('connect', e);
    return;
  }
  for (const c of run.calls) {
    const params = { name: c.tool, arguments: c.args };
    if (run.carrier === 'meta') params._meta = { [TRACEPARENT_META_KEY]: run.traceparent };
    try {
      const res = await client.callTool(params);
      ok(`call ${c.tool}`, JSON.stringify(res).slice(0, 200));
    } catch (e) {
      fail(`call ${c.tool}`, e);
    }
  }
}

try {
  await main();
} finally {
  try { await client.close(); } catch (e) { fail('close', e); }
  process.stdout.write(JSON.stringify({ steps, meta_key: TRACEPARENT_META_KEY }) + '\n');
  process.exit(0);
}
