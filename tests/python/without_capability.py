"""A tool call from a client that does not declare the elicitation capability, with the
official Python MCP SDK, and the same call from one that does (the control).

Usage: python without_capability.py PLAN.json

PLAN.json:

    {
      "url": "..."  |  "command": "...", "args": [...],   "mode": "auto" (optional),
      "protocolVersion": "2026-07-28",     (the version the sessions must negotiate)
      "tool": "confirm", "arguments": {...},
      "expectRefusal": {"code": -32021, "data": {...}, "message": "..."}
          | "expectToolError": "text the tool error contains",
      "expectResult": {...}                (optional: the control's result)
    }

Without the capability (the SDK declares elicitation only when given a callback), the
call is refused with the JSON-RPC error `expectRefusal` (its code, its data, a message
containing `message`), or, for a tool that declares no `clientRequirements` but asks
for an elicitation, answered with a tool error. With the capability (a callback that
must not be called), the call gets `expectResult`, when the plan has one.
"""

from __future__ import annotations

from typing import Any

import mcp_types as types
from mcp.shared.exceptions import MCPError

from mcpcheck import Checks, client, main, shown, wire


async def run(plan: dict[str, Any], checks: Checks) -> None:
    tool = plan["tool"]
    async with client(plan) as session:
        checks.equal(
            f"without elicitation: negotiated protocol version {session.protocol_version}",
            session.protocol_version,
            plan["protocolVersion"],
        )
        try:
            result = wire(await session.call_tool(tool, plan["arguments"]))
            refused = None
        except MCPError as error:
            result = None
            refused = error
        if "expectRefusal" in plan:
            want = plan["expectRefusal"]
            if checks.check(f"{tool} without elicitation: refused", refused is not None, f"answered {shown(result)}"):
                checks.equal(f"{tool} without elicitation: JSON-RPC error {want['code']}", refused.code, want["code"])
                checks.equal(f"{tool} without elicitation: error data", refused.data, want["data"])
                checks.check(
                    f"{tool} without elicitation: message names the capability",
                    want["message"] in refused.message,
                    refused.message,
                )
        else:
            text = shown(result) if result is not None else repr(refused)
            checks.check(
                f"{tool} without elicitation: a tool error saying {plan['expectToolError']!r}",
                result is not None and result.get("isError") is True and plan["expectToolError"] in text,
                text,
            )

    if "expectResult" not in plan:
        return

    async def elicitation(context: Any, params: Any) -> Any:
        checks.check(f"{tool} with elicitation: no elicitation request", False, shown(wire(params)))
        return types.ErrorData(code=types.INVALID_REQUEST, message="unexpected elicitation")

    async with client(plan, elicitation_callback=elicitation) as session:
        result = wire(await session.call_tool(tool, plan["arguments"]))
        checks.equal(f"{tool} with elicitation declared: served", result, plan["expectResult"])


if __name__ == "__main__":
    main(run)
