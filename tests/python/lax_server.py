"""A server on the official Python MCP SDK (``MCPServer``) whose tools parse their
arguments as the SDK does by default: pydantic's lax mode, which turns ``"7"`` into
``7`` and ``"yes"`` into ``True``. ``mcpdesc check --generate`` must find that
(``mcpdesc-cli/tests/check/python.rs``, description ``lax.mcpdesc.json`` beside this
file). ``label`` is strict (pydantic's strict mode and a ``pattern``): generated valid
inputs succeed, every invalid one is refused. ``fail`` always fails.

Run as ``python lax_server.py`` (stdio).
"""

from typing import Annotated

from pydantic import Field, StrictBool, StrictStr, StringConstraints

from mcp.server.mcpserver import MCPServer

server = MCPServer("lax-python")


@server.tool()
def repeat(text: str, times: Annotated[int, Field(ge=1, le=5)], loud: bool = False) -> str:
    """Repeats a text (lax arguments: the SDK's default)."""
    out = " ".join([text] * times)
    return out.upper() if loud else out


@server.tool()
def label(
    code: Annotated[str, StringConstraints(pattern=r"^[A-Z]{3}-[0-9]{2}$", strict=True)],
    urgent: StrictBool = False,
    note: StrictStr = "",
) -> str:
    """Labels a ticket (strict arguments)."""
    return f"{code}{'!' if urgent else ''} {note}".strip()


@server.tool()
def fail(reason: str) -> str:
    """Always fails."""
    raise ValueError(f"refused: {reason}")


if __name__ == "__main__":
    server.run()
