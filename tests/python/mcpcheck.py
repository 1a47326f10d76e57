"""What the Python MCP SDK test clients of this folder share: the plan, the checks, the client.

Each client script is run by a Rust test as ``python SCRIPT PLAN.json`` (see
``harness.rs``). It prints one line per check (``ok   LABEL`` or ``FAIL LABEL: DETAIL``)
and closes with ``N passed, M failed``; it exits 1 when a check failed, when none ran, or
when the session itself failed (an exception is reported as a failed check).
"""

from __future__ import annotations

import json
import sys
import traceback
from collections.abc import Awaitable, Callable
from typing import Any, NoReturn

import anyio
from mcp import Client
from mcp.client.stdio import StdioServerParameters


class Checks:
    """Counts checks and prints one line for each."""

    def __init__(self) -> None:
        self.passed = 0
        self.failed = 0

    def check(self, label: str, ok: bool, detail: str = "") -> bool:
        """Records one check; returns whether it passed."""
        if ok:
            self.passed += 1
            print(f"ok   {label}", flush=True)
        else:
            self.failed += 1
            print(f"FAIL {label}" + (f": {detail}" if detail else ""), flush=True)
        return ok

    def equal(self, label: str, got: Any, want: Any) -> bool:
        """Checks that two JSON values are equal, showing both when not."""
        return self.check(label, got == want, f"got {shown(got)}, expected {shown(want)}")

    def finish(self) -> NoReturn:
        """Prints the closing line and exits: 1 on any failure or when nothing was checked."""
        print(f"{self.passed} passed, {self.failed} failed", flush=True)
        sys.exit(1 if self.failed or not self.passed else 0)


def shown(value: Any) -> str:
    """A JSON value on one line, for failure details."""
    return json.dumps(value, sort_keys=True)


def wire(model: Any) -> Any:
    """An SDK model as the JSON it was read from: only the members the peer sent.

    ``exclude_unset`` keeps the SDK's defaults (``isError: false``, ``resultType``) out,
    so a result compares with a description's example member for member.
    """
    return model.model_dump(by_alias=True, mode="json", exclude_unset=True)


def client(plan: dict[str, Any], **options: Any) -> Client:
    """A client of the plan's server: ``url`` (streamable HTTP) or ``command`` and ``args``
    (stdio, the SDK starts the server). ``mode`` is the SDK's negotiation mode: ``auto``
    (its default: ``server/discover`` at 2026-07-28, else ``initialize``) unless the plan
    names another."""
    if "url" in plan:
        server: Any = plan["url"]
    else:
        server = StdioServerParameters(command=plan["command"], args=plan.get("args", []))
    return Client(server, mode=plan.get("mode", "auto"), **options)


def main(run: Callable[[dict[str, Any], Checks], Awaitable[None]]) -> NoReturn:
    """Reads the plan named on the command line, runs ``run(plan, checks)``, and exits."""
    with open(sys.argv[1], encoding="utf-8") as file:
        plan = json.load(file)
    checks = Checks()
    try:
        anyio.run(run, plan, checks)
    except BaseException as error:  # reported as a failure, never swallowed
        traceback.print_exc()
        checks.check("the session ran to its end", False, repr(error))
    checks.finish()
