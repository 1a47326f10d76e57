// The prompts, resources, resource templates and completions part of an end-to-end
// plan, checked with the official TypeScript MCP client (used by client.mjs).
//
// plan.primitives (written by the Rust test):
// {
//   "capabilities": ["prompts", "resources", "completions"],   // must be advertised
//   "expectedPrompts": [...], "expectedResources": [...], "expectedResourceTemplates": [...],
//   "prompts":     [ { "label", "name", "arguments", "expectResult" } ],
//   "reads":       [ { "label", "uri", "expectResult" } ],
//   "completions": [ { "label", "ref": {...}, "argument": {...}, "context"?: {...}, "expectResult" } ],
//   "errors":      [ { "label", "method": "prompts/get" | "resources/read" | "completion/complete",
//                      "params": {...}, "code": -32602 } ]
// }
//
// Every example answer must equal the example's whole result (`_meta` included) as the
// client parses it; every bad request must end with the JSON-RPC error `code`, and the
// server must keep serving (the list requests run again at the end). The expected
// listings go through the SDK's own result schemas first, so that both sides lose the
// same members (this SDK's PromptArgument has no `title`, for one).
import { isDeepStrictEqual } from "node:util";
import {
  ListPromptsResultSchema,
  ListResourcesResultSchema,
  ListResourceTemplatesResultSchema,
} from "@modelcontextprotocol/sdk/types.js";

const byKey = (key) => (a, b) => (a[key] < b[key] ? -1 : a[key] > b[key] ? 1 : 0);
const show = (value) => JSON.stringify(value);

async function compareList(check, label, fetch, want, key, schema, member) {
  try {
    const got = [...(await fetch())].sort(byKey(key));
    const parsed = schema.parse({ [member]: want })[member];
    const expected = [...parsed].sort(byKey(key));
    check(label, isDeepStrictEqual(got, expected), `got ${show(got)}\nwant ${show(expected)}`);
  } catch (e) {
    check(label, false, String(e));
  }
}

async function lists(client, p, check, suffix) {
  if (p.expectedPrompts) {
    await compareList(check, `prompts/list equals the router's projection${suffix}`,
      async () => (await client.listPrompts()).prompts, p.expectedPrompts, "name",
      ListPromptsResultSchema, "prompts");
  }
  if (p.expectedResources) {
    await compareList(check, `resources/list equals the router's projection${suffix}`,
      async () => (await client.listResources()).resources, p.expectedResources, "uri",
      ListResourcesResultSchema, "resources");
  }
  if (p.expectedResourceTemplates) {
    await compareList(check, `resources/templates/list equals the router's projection${suffix}`,
      async () => (await client.listResourceTemplates()).resourceTemplates,
      p.expectedResourceTemplates, "uriTemplate", ListResourceTemplatesResultSchema,
      "resourceTemplates");
  }
}

async function answers(check, label, call, want) {
  try {
    const got = await call();
    check(`${label}: result equals the example result`, isDeepStrictEqual(got, want),
      `got ${show(got)}\nwant ${show(want)}`);
  } catch (e) {
    check(`${label}: result equals the example result`, false, String(e));
  }
}

/** Runs the plan's primitives checks on a connected client. */
export async function checkPrimitives(client, plan, check) {
  const p = plan.primitives;
  if (!p) {
    return;
  }
  const capabilities = client.getServerCapabilities() ?? {};
  for (const name of p.capabilities ?? []) {
    check(`initialize: ${name} capability`, Boolean(capabilities[name]), show(capabilities));
  }
  // listChanged and subscribe: advertised exactly as the description declares them for
  // the negotiated version (the plan's changeFlags).
  for (const name of ["prompts", "resources"]) {
    if (capabilities[name]) {
      const want = p.changeFlags?.[name] ?? { listChanged: false, subscribe: false };
      const got = {
        listChanged: Boolean(capabilities[name].listChanged),
        subscribe: Boolean(capabilities[name].subscribe),
      };
      check(`initialize: ${name}.listChanged and subscribe as declared`,
        isDeepStrictEqual(got, want), `got ${show(got)}, want ${show(want)}`);
    }
  }
  await lists(client, p, check, "");

  for (const call of p.prompts ?? []) {
    await answers(check, `prompts/get ${call.name} (${call.label})`,
      () => client.getPrompt({ name: call.name, arguments: call.arguments }), call.expectResult);
  }
  for (const call of p.reads ?? []) {
    await answers(check, `resources/read ${call.uri} (${call.label})`,
      () => client.readResource({ uri: call.uri }), call.expectResult);
  }
  for (const call of p.completions ?? []) {
    const params = { ref: call.ref, argument: call.argument };
    if (call.context) {
      params.context = call.context;
    }
    await answers(check, `completion/complete ${show(call.ref)} (${call.label})`,
      () => client.complete(params), call.expectResult);
  }
  for (const bad of p.errors ?? []) {
    const label = `${bad.method} ${bad.label}: JSON-RPC error ${bad.code}`;
    const send = {
      "prompts/get": (params) => client.getPrompt(params),
      "resources/read": (params) => client.readResource(params),
      "completion/complete": (params) => client.complete(params),
    }[bad.method];
    try {
      const result = await send(bad.params);
      check(label, false, `got a result: ${show(result)}`);
    } catch (e) {
      check(label, e?.code === bad.code, `got ${e?.code}: ${e?.message ?? e}`);
    }
  }
  if ((p.errors ?? []).length > 0) {
    await lists(client, p, check, " (still serving after the bad requests)");
  }
}
