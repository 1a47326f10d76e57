// The official TypeScript MCP client against a server that enforces a description's
// security (`mcpdesc serve-mock FILE --http ADDR --token ...`), with static
// `Authorization` headers (no OAuth flow: nothing leaves loopback).
//
//   node auth.mjs PLAN.json
//
// PLAN: {"url", "resourceMetadata" (the expected document), "clients": [{"label",
// "token" (null: none), "connect": "ok" | HTTP status, "calls": [{"tool",
// "arguments", "text" (expected first text block) | "status" (expected HTTP error)}]}]}
//
// Also checks that the SDK's own discovery reads the Protected Resource Metadata and
// that the 401 challenge carries the metadata URL the SDK extracts. Prints one line
// per check and a closing "N passed, M failed" line; exits 1 on any failure.

import { readFileSync } from "node:fs";
import { isDeepStrictEqual } from "node:util";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import {
  discoverOAuthProtectedResourceMetadata,
  extractWWWAuthenticateParams,
} from "@modelcontextprotocol/sdk/client/auth.js";

const plan = JSON.parse(readFileSync(process.argv[2], "utf8"));
let passed = 0;
let failed = 0;

function check(label, ok, detail = "") {
  if (ok) {
    passed += 1;
    console.log(`ok   ${label}`);
  } else {
    failed += 1;
    console.log(`FAIL ${label}${detail ? `: ${detail}` : ""}`);
  }
}

const statusOf = (error) => error?.code ?? error?.status;

// Discovery, as the SDK does it after a 401.
const unauthorized = await fetch(plan.url, {
  method: "POST",
  headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
  body: JSON.stringify({ jsonrpc: "2.0", id: 0, method: "initialize", params: {
    protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "auth-e2e", version: "1" } } }),
});
const params = extractWWWAuthenticateParams(unauthorized);
check("401 without a token", unauthorized.status === 401, `${unauthorized.status}`);
check(
  "the SDK reads resource_metadata from the challenge",
  params.resourceMetadataUrl?.href === plan.resourceMetadataUrl,
  `${params.resourceMetadataUrl}`,
);
const metadata = await discoverOAuthProtectedResourceMetadata(new URL(plan.url));
check(
  "the SDK discovers the Protected Resource Metadata",
  isDeepStrictEqual(metadata, plan.resourceMetadata),
  JSON.stringify(metadata),
);

for (const spec of plan.clients) {
  const headers = spec.token ? { Authorization: `Bearer ${spec.token}` } : {};
  const transport = new StreamableHTTPClientTransport(new URL(plan.url), { requestInit: { headers } });
  const client = new Client({ name: "auth-e2e", version: "1.0.0" });
  try {
    await client.connect(transport);
    check(`${spec.label}: connects`, spec.connect === "ok", `expected HTTP ${spec.connect}`);
  } catch (error) {
    check(`${spec.label}: refused at connect with ${spec.connect}`, statusOf(error) === spec.connect, `${error}`);
    continue;
  }
  for (const call of spec.calls) {
    const label = `${spec.label}: ${call.tool}`;
    try {
      const result = await client.callTool({ name: call.tool, arguments: call.arguments ?? {} });
      const text = result.content?.[0]?.text;
      check(label, call.text !== undefined && text === call.text, `got ${JSON.stringify(result)}`);
    } catch (error) {
      check(`${label} refused with ${call.status}`, statusOf(error) === call.status, `${error}`);
    }
  }
  await client.close();
}

console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
