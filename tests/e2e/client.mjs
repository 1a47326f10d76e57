// End-to-end check of an MCP server with the official TypeScript MCP client.
//
// Usage: node client.mjs PLAN.json
//
// PLAN.json (written by the Rust test that starts this script):
// {
//   "command": "/path/to/server", "args": [],   (stdio: the client starts the server)
//   "url": "http://127.0.0.1:PORT/mcp",          (or streamable HTTP to a running server)
//   "serverName": "chess-server",
//   "protocolVersion": "2025-06-18",             (optional: the version the client offers
//                                                 in `initialize`; default the SDK's latest)
//   "expectedTools": [ ...native MCP Tool values the router projects for the version... ],
//   "calls": [ { "label": "...", "tool": "...", "arguments": {...},
//                "expectError": false, "expectKinds": ["text"],
//                "outputSchema": {...} | null, "expectStructured": {...} | null,
//                "expectResult": {...} | absent } ],
//   "invalidCalls": [ { "label": "...", "tool": "...", "arguments": {...} } ],
//   "unknownTool": "no_such_tool",
//   "interactions": [ { "label": "...", "tool": "...", "arguments": {...},
//                       "steps": [ ...the interaction example's steps... ],
//                       "expectResult": {...} } ],  (optional)
//   "progressCall": { "tool": "...", "arguments": {...}, "minNotifications": 1 },  (optional)
//   "cancelCall": { "tool": "...", "arguments": {...}, "expectLog": "..." },  (optional)
//   "taskProgressCall": { "tool": "...", "arguments": {...}, "minNotifications": 1 },  (optional)
//   "expectTasksCapability": true | false,  (optional)
//   "taskCallsAnsweredPlainly": ["tool", ...],  (optional)
//   "primitives": { ...prompts, resources, templates, completions: see primitives.mjs... }  (optional)
// }
//
// progressCall: the call asks for progress (a progressToken); expects at least
// minNotifications progress notifications, with increasing `progress`, and a result.
// taskProgressCall: the tool is called plainly, then as a task with
// `client.experimental.tasks.callToolStream` asking for progress: expects taskCreated
// first, task statuses (working, then completed), the result equal to the plain
// call's, and at least minNotifications progress notifications with increasing
// `progress` for the task's call.
// expectTasksCapability: whether the server advertises `capabilities.tasks`; without
// it no listed tool may carry `execution` either.
// taskCallsAnsweredPlainly: tools whose task-augmented call the server, which has no
// tasks capability (a stateless HTTP server keeps no task), must answer as the plain
// call (MCP 2025-11-25: a receiver without the capability processes the request
// normally).
// cancelCall: the call asks for progress and is aborted at its first progress
// notification (the SDK sends notifications/cancelled); expects the call to reject,
// then a log message (notifications/message) whose data contains expectLog, which
// the server's handler sends when it notices the cancellation and stops, and a
// server that still answers.
//
// For interactions the client declares the roots, sampling and elicitation
// capabilities and answers each request the server makes during the call with the next
// step's response, after checking the request against the step's (kind, and for
// elicitation the mode, message and schema or URL; for sampling the whole params).
//
// Prints one line per check and a closing "N passed, M failed" line; exits 1 on any
// failure.
import { readFileSync } from "node:fs";
import { isDeepStrictEqual } from "node:util";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import {
  CallToolResultSchema,
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  ListRootsRequestSchema,
  LoggingMessageNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";
import Ajv2020 from "ajv/dist/2020.js";
import { checkPrimitives } from "./primitives.mjs";
import AjvDraft7 from "ajv";

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

const byName = (a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

const transport = plan.url
  ? new StreamableHTTPClientTransport(new URL(plan.url))
  : new StdioClientTransport({
      command: plan.command,
      args: plan.args ?? [],
      stderr: "inherit",
    });
// The SDK always offers its latest version; a plan may offer an older one it supports
// (the server then answers with it, and the SDK uses it for the session).
if (plan.protocolVersion) {
  const send = transport.send.bind(transport);
  transport.send = (message, options) =>
    send(
      message?.method === "initialize"
        ? { ...message, params: { ...message.params, protocolVersion: plan.protocolVersion } }
        : message,
      options,
    );
}
const interactive = (plan.interactions ?? []).length > 0;
const client = new Client(
  { name: "mcpdesc-e2e", version: "1.0.0" },
  interactive
    ? { capabilities: { roots: {}, sampling: { tools: {} }, elicitation: { form: {}, url: {} } } }
    : {},
);

// The steps the current interaction call still expects, and what went wrong with them.
let script = [];
let scriptProblems = [];
const withoutMeta = (params) => {
  const { _meta, ...rest } = params ?? {};
  return rest;
};
function answer(kind, check) {
  return async (request) => {
    const step = script.shift();
    if (!step) {
      scriptProblems.push(`unexpected ${kind} request: ${JSON.stringify(request.params)}`);
      throw new Error(`no step left for this ${kind} request`);
    }
    if (step.type !== kind) {
      scriptProblems.push(`expected a ${step.type} request, got ${kind}`);
      throw new Error(`expected a ${step.type} request`);
    }
    const problem = check(step.request ?? {}, request.params ?? {});
    if (problem) {
      scriptProblems.push(`${kind}: ${problem}`);
      throw new Error(problem);
    }
    return step.response;
  };
}
// Every log message the server sends.
const logs = [];
client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => {
  logs.push(notification.params);
});
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

if (interactive) {
  client.setRequestHandler(ListRootsRequestSchema, answer("roots", () => null));
  client.setRequestHandler(
    CreateMessageRequestSchema,
    answer("sampling", (want, got) =>
      isDeepStrictEqual(withoutMeta(got), withoutMeta(want))
        ? null
        : `params ${JSON.stringify(got)} differ from the step's ${JSON.stringify(want)}`,
    ),
  );
  client.setRequestHandler(
    ElicitRequestSchema,
    answer("elicitation", (want, got) => {
      const mode = (r) => r.mode ?? "form";
      const same =
        mode(got) === mode(want) &&
        got.message === want.message &&
        (mode(want) === "url"
          ? got.url === want.url
          : isDeepStrictEqual(got.requestedSchema, want.requestedSchema));
      return same ? null : `request ${JSON.stringify(got)} differs from the step's ${JSON.stringify(want)}`;
    }),
  );
}

try {
  await client.connect(transport);
  // Progress notifications as they arrive on the wire. The SDK hands a notification
  // to its handler one microtask later, after the response read in the same chunk
  // has already removed the call's progress handler: the last notification before a
  // result can then never reach `onprogress` (it reports "unknown token" instead).
  // What the server sent is counted here, before the SDK sees it.
  const wireProgress = [];
  const deliver = transport.onmessage;
  transport.onmessage = (message, extra) => {
    if (message?.method === "notifications/progress") {
      wireProgress.push(message.params);
    }
    deliver?.(message, extra);
  };
  if (plan.protocolVersion && plan.url) {
    // The streamable HTTP transport sends the negotiated version as a header from now on.
    check(
      "initialize: negotiated protocol version",
      transport.protocolVersion === plan.protocolVersion,
      String(transport.protocolVersion),
    );
  }
  const info = client.getServerVersion();
  check("initialize: server name", info?.name === plan.serverName, JSON.stringify(info));
  if (plan.expectedTools.length > 0) {
    check("initialize: tools capability", Boolean(client.getServerCapabilities()?.tools));
  }

  const listed = (await client.listTools()).tools;
  if (plan.expectTasksCapability !== undefined) {
    const tasks = client.getServerCapabilities()?.tasks;
    check(
      `initialize: tasks capability ${plan.expectTasksCapability ? "advertised" : "absent"}`,
      Boolean(tasks) === plan.expectTasksCapability,
      JSON.stringify(tasks),
    );
    if (!plan.expectTasksCapability) {
      const executing = listed.filter((t) => t.execution !== undefined).map((t) => t.name);
      check("tools/list: no tool has execution", executing.length === 0, JSON.stringify(executing));
    }
  }
  const got = [...listed].sort(byName);
  const want = [...plan.expectedTools].sort(byName);
  check(
    "tools/list equals the router's projection",
    isDeepStrictEqual(got, want),
    `got ${JSON.stringify(got)}\nwant ${JSON.stringify(want)}`,
  );

  // The schema's dialect: draft-07 when its `$schema` says so, else 2020-12 (MCP's default).
  const ajv2020 = new Ajv2020({ strict: false });
  const ajv7 = new AjvDraft7({ strict: false });
  const ajvFor = (schema) => (/draft-07/.test(schema?.$schema ?? "") ? ajv7 : ajv2020);
  // MCP 2025-11-25 tasks: a tool whose execution.taskSupport is optional or required
  // is also called with `client.experimental.tasks.callToolStream`, which must yield
  // taskCreated first and then the result (a tool error fails the task: the stream
  // ends with an error and tasks/result still gives the tool's result); a required
  // tool's plain call must be refused with -32601, and so must a task-augmented call
  // of a forbidden tool on a server with the tasks capability.
  const taskSupport = (name) =>
    listed.find((t) => t.name === name)?.execution?.taskSupport ?? "forbidden";
  const tasksServed = Boolean(client.getServerCapabilities()?.tasks?.requests?.tools?.call);
  async function callAsTask(call, label) {
    const messages = [];
    for await (const message of client.experimental.tasks.callToolStream(
      { name: call.tool, arguments: call.arguments },
      CallToolResultSchema,
      { task: { ttl: 60000 } },
    )) {
      messages.push(message);
    }
    const types = messages.map((m) => m.type);
    check(`${label} as a task: taskCreated first`, types[0] === "taskCreated", JSON.stringify(types));
    const last = messages[messages.length - 1];
    const ended = call.expectError ? last?.type === "error" : last?.type === "result";
    check(`${label} as a task: ends with ${call.expectError ? "an error" : "the result"}`, ended, JSON.stringify(messages));
    const taskId = messages[0]?.task?.taskId;
    const result =
      last?.type === "result"
        ? last.result
        : await client.experimental.tasks.getTaskResult(taskId, CallToolResultSchema);
    // tasks/result ties the result to its task in `_meta`; the rest is the tool's.
    const { "io.modelcontextprotocol/related-task": related, ...meta } = result._meta ?? {};
    check(`${label} as a task: the result names its task`, related?.taskId === taskId, JSON.stringify(result._meta));
    const { _meta, ...rest } = result;
    return Object.keys(meta).length > 0 ? { ...rest, _meta: meta } : rest;
  }
  async function refused(label, params, code = -32601) {
    try {
      const result = await client.request({ method: "tools/call", params }, CallToolResultSchema);
      check(label, false, `answered ${JSON.stringify(result)}`);
    } catch (e) {
      check(label, e?.code === code, String(e));
    }
  }
  for (const call of plan.calls) {
    const label = `tools/call ${call.tool} (${call.label})`;
    try {
      const support = taskSupport(call.tool);
      const params = { name: call.tool, arguments: call.arguments };
      let result;
      if (support === "required") {
        await refused(`${label}: the plain call is refused with -32601`, params);
        result = await callAsTask(call, label);
      } else {
        result = await client.callTool(params);
        const same = (r) => ({ content: r.content, structuredContent: r.structuredContent, isError: r.isError === true });
        if ((plan.taskCallsAnsweredPlainly ?? []).includes(call.tool)) {
          const answered = await client.request(
            { method: "tools/call", params: { ...params, task: { ttl: 60000 } } },
            CallToolResultSchema,
          );
          check(
            `${label}: the task-augmented call is answered as the plain call (no tasks capability)`,
            answered.task === undefined && isDeepStrictEqual(same(answered), same(result)),
            `answered ${JSON.stringify(answered)}\nplain ${JSON.stringify(result)}`,
          );
        } else if (support === "optional") {
          const asTask = await callAsTask(call, label);
          check(
            `${label} as a task: the same result as the plain call`,
            isDeepStrictEqual(same(asTask), same(result)),
            `task ${JSON.stringify(asTask)}\nplain ${JSON.stringify(result)}`,
          );
        } else if (tasksServed) {
          await refused(`${label}: the task-augmented call is refused with -32601`, { ...params, task: {} });
        }
      }
      const isError = result.isError === true;
      check(`${label}: isError=${call.expectError}`, isError === call.expectError, JSON.stringify(result));
      const kinds = (result.content ?? []).map((c) => c.type);
      check(`${label}: content kinds`, isDeepStrictEqual(kinds, call.expectKinds), JSON.stringify(kinds));
      if (!call.expectError && call.outputSchema) {
        const validate = ajvFor(call.outputSchema).compile(call.outputSchema);
        check(
          `${label}: structuredContent matches outputSchema`,
          result.structuredContent !== undefined && validate(result.structuredContent),
          JSON.stringify(validate.errors),
        );
      }
      if (call.expectResult) {
        // The whole result as the client sees it: content, structuredContent, isError
        // (absent and false are the same) and _meta.
        const shape = (r) => ({
          content: r.content ?? [],
          structuredContent: r.structuredContent,
          isError: r.isError === true,
          _meta: r._meta,
        });
        check(
          `${label}: result equals the example result`,
          isDeepStrictEqual(shape(result), shape(call.expectResult)),
          `got ${JSON.stringify(shape(result))}\nwant ${JSON.stringify(shape(call.expectResult))}`,
        );
      }
      if (call.expectStructured) {
        check(
          `${label}: structuredContent equals the example`,
          isDeepStrictEqual(result.structuredContent, call.expectStructured),
          JSON.stringify(result.structuredContent),
        );
      }
    } catch (e) {
      check(label, false, String(e));
    }
  }

  for (const call of plan.invalidCalls ?? []) {
    const label = `tools/call ${call.tool} with invalid arguments (${call.label})`;
    try {
      const result = await client.callTool({ name: call.tool, arguments: call.arguments });
      check(`${label}: isError=true`, result.isError === true, JSON.stringify(result));
    } catch (e) {
      check(label, false, `expected a tool error result, got a protocol error: ${e}`);
    }
  }

  for (const call of plan.interactions ?? []) {
    const label = `tools/call ${call.tool} (interaction ${call.label})`;
    script = [...call.steps];
    scriptProblems = [];
    try {
      const result = await client.callTool({ name: call.tool, arguments: call.arguments });
      check(`${label}: every request matched its step`, scriptProblems.length === 0, scriptProblems.join("; "));
      check(`${label}: every step was requested`, script.length === 0, `${script.length} step(s) left`);
      const shape = (r) => ({
        content: r.content ?? [],
        structuredContent: r.structuredContent,
        isError: r.isError === true,
      });
      check(
        `${label}: result equals the example result`,
        isDeepStrictEqual(shape(result), shape(call.expectResult)),
        `got ${JSON.stringify(shape(result))}\nwant ${JSON.stringify(shape(call.expectResult))}`,
      );
    } catch (e) {
      check(label, false, String(e));
    }
  }

  // Prompts, resources, resource templates and completions (primitives.mjs).
  await checkPrimitives(client, plan, check);

  if (plan.progressCall) {
    const call = plan.progressCall;
    const label = `tools/call ${call.tool} with a progressToken`;
    const delivered = [];
    const before = wireProgress.length;
    try {
      const result = await client.callTool({ name: call.tool, arguments: call.arguments }, undefined, {
        onprogress: (p) => delivered.push(p),
      });
      // Only this call is in flight: every progress notification since it started is
      // its own (the token is checked too).
      const progress = wireProgress.slice(before);
      check(`${label}: a result`, result.isError !== true, JSON.stringify(result));
      check(
        `${label}: at least ${call.minNotifications} progress notification(s)`,
        progress.length >= call.minNotifications,
        JSON.stringify(progress),
      );
      check(
        `${label}: one progress token`,
        progress.every((p) => p.progressToken === progress[0].progressToken),
        JSON.stringify(progress),
      );
      check(
        `${label}: progress increases`,
        progress.every((p, i) => i === 0 || p.progress > progress[i - 1].progress),
        JSON.stringify(progress),
      );
      check(
        `${label}: the SDK's onprogress saw them`,
        delivered.length >= Math.min(1, progress.length),
        JSON.stringify(delivered),
      );
    } catch (e) {
      check(label, false, String(e));
    }
  }

  if (plan.taskProgressCall) {
    const call = plan.taskProgressCall;
    const label = `tools/call ${call.tool} as a task with a progressToken`;
    const params = { name: call.tool, arguments: call.arguments };
    try {
      const plain = await client.callTool(params);
      const before = wireProgress.length;
      const delivered = [];
      const messages = [];
      for await (const message of client.experimental.tasks.callToolStream(params, CallToolResultSchema, {
        task: { ttl: 60000 },
        onprogress: (p) => delivered.push(p),
      })) {
        messages.push(message);
      }
      const types = messages.map((m) => m.type);
      check(`${label}: taskCreated first`, types[0] === "taskCreated", JSON.stringify(types));
      const statuses = messages.filter((m) => m.type === "taskStatus").map((m) => m.task.status);
      check(
        `${label}: task statuses working, then completed`,
        statuses.length > 0 &&
          statuses[statuses.length - 1] === "completed" &&
          statuses.slice(0, -1).every((s) => s === "working"),
        JSON.stringify(statuses),
      );
      const last = messages[messages.length - 1];
      check(`${label}: ends with the result`, last?.type === "result", JSON.stringify(last));
      const same = (r) => ({ content: r?.content, structuredContent: r?.structuredContent, isError: r?.isError === true });
      check(
        `${label}: the same result as the plain call`,
        isDeepStrictEqual(same(last?.result), same(plain)),
        `task ${JSON.stringify(last?.result)}\nplain ${JSON.stringify(plain)}`,
      );
      // Over HTTP the task's progress travels on the session's GET stream, the
      // result on the tasks/result response: wait for the progress to arrive.
      for (let waited = 0; wireProgress.length - before < call.minNotifications && waited < 10000; waited += 50) {
        await sleep(50);
      }
      const progress = wireProgress.slice(before);
      check(
        `${label}: at least ${call.minNotifications} progress notification(s)`,
        progress.length >= call.minNotifications,
        JSON.stringify(progress),
      );
      check(
        `${label}: progress increases under one token`,
        progress.every(
          (p, i) => i === 0 || (p.progress > progress[i - 1].progress && p.progressToken === progress[0].progressToken),
        ),
        JSON.stringify(progress),
      );
    } catch (e) {
      check(label, false, String(e));
    }
  }

  if (plan.cancelCall) {
    const call = plan.cancelCall;
    const label = `tools/call ${call.tool} cancelled at its first progress`;
    const controller = new AbortController();
    let progressSeen = 0;
    try {
      const result = await client.callTool({ name: call.tool, arguments: call.arguments }, undefined, {
        signal: controller.signal,
        onprogress: () => {
          progressSeen += 1;
          controller.abort("the test cancels the call");
        },
      });
      check(`${label}: the call is aborted`, false, `got a result: ${JSON.stringify(result)}`);
    } catch (e) {
      check(`${label}: the call is aborted`, progressSeen > 0, `${progressSeen} progress, ${e}`);
    }
    // The handler notices the cancellation, stops, and says so in a log message.
    const stopped = () =>
      logs.find((l) => typeof l.data === "string" && l.data.includes(call.expectLog));
    for (let waited = 0; !stopped() && waited < 10000; waited += 50) {
      await sleep(50);
    }
    check(`${label}: the handler stopped early`, Boolean(stopped()), JSON.stringify(logs));
    try {
      await client.listTools();
      check(`${label}: the server still answers`, true);
    } catch (e) {
      check(`${label}: the server still answers`, false, String(e));
    }
  }

  if (plan.unknownTool) {
    const label = `tools/call ${plan.unknownTool} (unknown tool)`;
    try {
      const result = await client.callTool({ name: plan.unknownTool, arguments: {} });
      check(`${label}: JSON-RPC error`, false, `got a result: ${JSON.stringify(result)}`);
    } catch (e) {
      check(`${label}: JSON-RPC error`, typeof e?.code === "number", String(e));
    }
  }
} catch (e) {
  check("session", false, String(e?.stack ?? e));
} finally {
  await client.close().catch(() => {});
}

console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
