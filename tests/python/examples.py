"""Plays a description's examples against a server with the official Python MCP SDK.

Usage: python examples.py PLAN.json

PLAN.json (written by the Rust test; the shape of tests/e2e/client.mjs's plan, the
members this script reads):

    {
      "url": "http://127.0.0.1:PORT/mcp"  |  "command": "...", "args": [...],
      "mode": "auto",                       (optional: the SDK's negotiation mode)
      "protocolVersion": "2025-11-25",      (the version the session must negotiate)
      "serverName": "chess-server",         (optional)
      "expectedTools": [...],               (tools/list, in any order)
      "calls": [{"label", "tool", "arguments", "expectError", "outputSchema",
                 "expectStructured", "expectResult"}],
      "invalidCalls": [{"label", "tool", "arguments"}],     (optional: tool errors)
      "unknownTool": "no_such_tool",                        (optional: a JSON-RPC error)
      "progressCall": {"tool", "arguments", "minNotifications"},  (optional)
      "primitives": {"expectedPrompts", "expectedResources", "expectedResourceTemplates",
                     "prompts", "reads", "completions", "errors"}  (optional)
    }

Checks: the negotiated version; every list equals the expected projection; every call's
result equals its example's whole result (structured content equal to the example's and
valid against the output schema); invalid arguments give a tool error; an unknown tool,
prompt or resource a JSON-RPC error with the expected code; progress notifications arrive.
"""

from __future__ import annotations

from typing import Any

import jsonschema
import mcp_types as types
from mcp.shared.exceptions import MCPError

from mcpcheck import Checks, client, main, shown, wire


def by_key(items: list[Any], key: str) -> list[Any]:
    return sorted(items, key=lambda item: item[key])


async def run(plan: dict[str, Any], checks: Checks) -> None:
    async with client(plan) as session:
        checks.equal(
            f"negotiated protocol version {session.protocol_version}",
            session.protocol_version,
            plan["protocolVersion"],
        )
        if "serverName" in plan:
            name = session.server_info.name if session.server_info else None
            checks.equal("server name", name, plan["serverName"])

        tools = (await session.list_tools()).tools
        checks.equal(
            f"tools/list: {len(tools)} tools equal the router's projection",
            by_key([wire(t) for t in tools], "name"),
            by_key(plan["expectedTools"], "name"),
        )

        for call in plan["calls"]:
            label = f"{call['tool']} {call['label']}"
            result = wire(await session.call_tool(call["tool"], call["arguments"]))
            checks.equal(f"{label}: isError", result.get("isError", False), call["expectError"])
            if call.get("expectStructured") is not None:
                structured = result.get("structuredContent")
                checks.equal(f"{label}: structured content", structured, call["expectStructured"])
                if call.get("outputSchema") is not None:
                    try:
                        jsonschema.validate(structured, call["outputSchema"])
                        checks.check(f"{label}: structured content valid against outputSchema", True)
                    except jsonschema.ValidationError as error:
                        checks.check(f"{label}: structured content valid against outputSchema", False, error.message)
            if "expectResult" in call:
                checks.equal(f"{label}: result equals the example result", result, call["expectResult"])

        for call in plan.get("invalidCalls", []):
            result = wire(await session.call_tool(call["tool"], call["arguments"]))
            checks.check(f"{call['tool']} {call['label']}: a tool error", result.get("isError") is True, shown(result))

        if "unknownTool" in plan:
            try:
                result = await session.call_tool(plan["unknownTool"], {})
                checks.check("an unknown tool: a JSON-RPC error", False, shown(wire(result)))
            except MCPError as error:
                checks.check(f"an unknown tool: JSON-RPC error {error.code}", True)

        if "progressCall" in plan:
            call = plan["progressCall"]
            seen: list[float] = []

            async def progress(value: float, total: float | None, message: str | None) -> None:
                seen.append(value)

            result = wire(await session.call_tool(call["tool"], call["arguments"], progress_callback=progress))
            checks.check(f"{call['tool']} with progress: a result", result.get("isError") is not True, shown(result))
            checks.check(
                f"at least {call['minNotifications']} progress notification(s)",
                len(seen) >= call["minNotifications"] and seen == sorted(seen),
                f"received {seen}",
            )

        if "primitives" in plan:
            await primitives(session, plan["primitives"], checks)


async def primitives(session: Any, plan: dict[str, Any], checks: Checks) -> None:
    """Prompts, resources, resource templates and completions: lists, examples, errors."""
    if "prompts" in plan.get("capabilities", []):
        prompts = [wire(p) for p in (await session.list_prompts()).prompts]
        checks.equal("prompts/list equals the router's projection", by_key(prompts, "name"), by_key(plan["expectedPrompts"], "name"))
    if "resources" in plan.get("capabilities", []):
        resources = [wire(r) for r in (await session.list_resources()).resources]
        checks.equal("resources/list equals the router's projection", by_key(resources, "uri"), by_key(plan["expectedResources"], "uri"))
        templates = [wire(t) for t in (await session.list_resource_templates()).resource_templates]
        checks.equal(
            "resources/templates/list equals the router's projection",
            by_key(templates, "uriTemplate"),
            by_key(plan["expectedResourceTemplates"], "uriTemplate"),
        )
    for call in plan.get("prompts", []):
        result = wire(await session.get_prompt(call["name"], call["arguments"]))
        checks.equal(f"prompt {call['name']} {call['label']}: result equals the example result", result, call["expectResult"])
    for call in plan.get("reads", []):
        result = wire(await session.read_resource(call["uri"]))
        checks.equal(f"read {call['uri']} {call['label']}: result equals the example result", result, call["expectResult"])
    for call in plan.get("completions", []):
        ref = reference(call["ref"])
        context = call.get("context", {}).get("arguments")
        result = wire(await session.complete(ref, call["argument"], context))
        checks.equal(f"complete {call['label']}: result equals the example result", result, call["expectResult"])
    for error in plan.get("errors", []):
        label = f"{error['method']} {error['label']}"
        try:
            result = await bad_request(session, error["method"], error["params"])
            checks.check(f"{label}: JSON-RPC error {error['code']}", False, f"answered {shown(wire(result))}")
        except MCPError as raised:
            checks.equal(f"{label}: JSON-RPC error {error['code']}", raised.code, error["code"])


def reference(ref: dict[str, Any]) -> Any:
    if ref["type"] == "ref/prompt":
        return types.PromptReference.model_validate(ref)
    return types.ResourceTemplateReference.model_validate(ref)


async def bad_request(session: Any, method: str, params: dict[str, Any]) -> Any:
    if method == "prompts/get":
        return await session.get_prompt(params["name"], params.get("arguments"))
    if method == "resources/read":
        return await session.read_resource(params["uri"])
    if method == "completion/complete":
        return await session.complete(reference(params["ref"]), params["argument"])
    raise ValueError(f"no bad request of method {method}")


if __name__ == "__main__":
    main(run)
