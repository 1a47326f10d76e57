"""Plays one Tool Interaction Example with the official Python MCP SDK.

Usage: python interaction.py PLAN.json

PLAN.json:

    {
      "url": "..."  |  "command": "...", "args": [...],   "mode": "auto" (optional),
      "protocolVersion": "2025-11-25",     (the version the session must negotiate)
      "tool": "record_game_result", "arguments": {...},
      "steps": [...the interaction example's steps...],
      "expectResult": {...}                (the interaction example's result)
    }

The client declares the elicitation, sampling and roots capabilities (the SDK declares
one for each callback it is given) and answers each request the server makes during the
call with the next step's response, after checking the request against the step: its
kind, and for an elicitation its mode, message and requestedSchema (or URL), for
sampling its whole params. Before MCP 2026-07-28 the requests are server-to-client
requests; from 2026-07-28 on the SDK receives them as input-required rounds and calls
the same callbacks. Then: every step was requested, and the final result equals the
example's.
"""

from __future__ import annotations

from typing import Any

import mcp_types as types

from mcpcheck import Checks, client, main, shown, wire


async def run(plan: dict[str, Any], checks: Checks) -> None:
    steps = list(plan["steps"])
    taken: list[int] = []

    def next_step(kind: str, request: dict[str, Any]) -> dict[str, Any] | None:
        index = len(taken)
        if index >= len(steps):
            checks.check(f"{kind} request {shown(request)}", False, "no step left to answer it")
            return None
        step = steps[index]
        taken.append(index)
        checks.equal(f"step {index}: the server asks for {kind}", kind, step["type"])
        return step

    async def elicitation(context: Any, params: Any) -> Any:
        request = wire(params)
        request.pop("_meta", None)
        step = next_step("elicitation", request)
        if step is None:
            return types.ErrorData(code=types.INVALID_REQUEST, message="unexpected elicitation")
        want = step["request"]
        checks.equal(f"step {taken[-1]}: elicitation mode", request.get("mode", "form"), want.get("mode", "form"))
        checks.equal(f"step {taken[-1]}: elicitation message", request.get("message"), want.get("message"))
        for member in ("requestedSchema", "url"):
            if member in want:
                checks.equal(f"step {taken[-1]}: elicitation {member}", request.get(member), want[member])
        print(f"     answering with {shown(step['response'])}", flush=True)
        return types.ElicitResult.model_validate(step["response"])

    async def sampling(context: Any, params: Any) -> Any:
        request = wire(params)
        request.pop("_meta", None)
        step = next_step("sampling", request)
        if step is None:
            return types.ErrorData(code=types.INVALID_REQUEST, message="unexpected sampling")
        checks.equal(f"step {taken[-1]}: sampling params", request, step["request"])
        return types.CreateMessageResult.model_validate(step["response"])

    async def roots(context: Any) -> Any:
        step = next_step("roots", {})
        if step is None:
            return types.ErrorData(code=types.INVALID_REQUEST, message="unexpected roots/list")
        return types.ListRootsResult.model_validate(step["response"])

    async with client(
        plan, elicitation_callback=elicitation, sampling_callback=sampling, list_roots_callback=roots
    ) as session:
        checks.equal(
            f"negotiated protocol version {session.protocol_version}",
            session.protocol_version,
            plan["protocolVersion"],
        )
        result = wire(await session.call_tool(plan["tool"], plan["arguments"]))
        checks.equal(f"all {len(steps)} step(s) requested, in order", taken, list(range(len(steps))))
        checks.equal(f"{plan['tool']}: the final result equals the example result", result, plan["expectResult"])


if __name__ == "__main__":
    main(run)
