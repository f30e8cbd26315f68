// Drives a pyws server with the TypeScript MCP SDK's client, as an agent
// would, and prints what it saw as one JSON object; tests/e2e/mcp_test.go
// compares it with the HTTP API's answers. The plan (argv[2]) names the
// server, the keys and the calls to make.
import { readFileSync } from "node:fs";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

const plan = JSON.parse(readFileSync(process.argv[2], "utf8"));

async function connect(key) {
  const client = new Client({ name: "pyws-ts-test", version: "1.0.0" });
  const transport = new StreamableHTTPClientTransport(new URL(plan.url), {
    requestInit: { headers: key ? { Authorization: `Bearer ${key}` } : {} },
  });
  await client.connect(transport);
  return client;
}

// call returns the result as the SDK hands it over, or what it threw
// (output schema validation throws).
async function call(client, tool, args) {
  try {
    const r = await client.callTool({ name: tool, arguments: args });
    return { tool, isError: !!r.isError, structuredContent: r.structuredContent ?? null, text: r.content?.[0]?.text ?? "" };
  } catch (e) {
    return { tool, thrown: String(e?.message ?? e) };
  }
}

const out = {};

for (const [name, key] of [["noKey", ""], ["badKey", "pyws_not_a_key"]]) {
  try {
    const c = await connect(key);
    await c.close();
    out[name] = "connected";
  } catch (e) {
    out[name] = String(e?.message ?? e);
  }
}

const client = await connect(plan.key);
out.serverName = client.getServerVersion()?.name;
out.tools = (await client.listTools()).tools.map((t) => ({ name: t.name, inputSchema: t.inputSchema, outputSchema: t.outputSchema }));
out.calls = [];
for (const c of plan.calls) out.calls.push(await call(client, c.tool, c.args));
out.errors = [];
for (const c of plan.errorCalls) out.errors.push(await call(client, c.tool, c.args));

out.resources = (await client.listResources()).resources.map((r) => r.uri);
out.templates = (await client.listResourceTemplates()).resourceTemplates.map((t) => t.uriTemplate);
const read = await client.readResource({ uri: plan.read });
out.read = read.contents[0].text;

// 16 sessions at once, each a few calls.
const results = await Promise.all(
  Array.from({ length: plan.sessions }, async () => {
    const c = await connect(plan.key);
    try {
      for (const x of plan.calls.slice(0, 3)) {
        const r = await call(c, x.tool, x.args);
        if (r.thrown || r.isError) return r.thrown ?? r.text;
      }
      return "ok";
    } finally {
      await c.close();
    }
  }),
);
out.sessions = results;

// The other key's workspace.
const other = await connect(plan.otherKey);
out.otherResources = (await other.listResources()).resources.map((r) => r.uri);
await other.close();

// A rename, then its edits applied.
const rename = await call(client, "rename_symbol", plan.rename);
out.rename = rename;
if (rename.structuredContent) {
  out.apply = await call(client, "apply_workspace_edit", { edit: { changes: rename.structuredContent.changes } });
}
await client.close();
process.stdout.write(JSON.stringify(out));
