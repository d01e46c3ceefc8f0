"""Drives `ctxc mcp` with the official Python MCP client (tests/integration/mcp.rs).

Usage: python mcp_client.py CTXC ROOT < calls.json, where calls.json is a list of
[tool, arguments]. Prints one JSON object: the negotiated protocol version, the tool list as the
client parsed it, and each call's result (its texts and isError) or the protocol error it raised.
"""

import asyncio
import json
import sys
import warnings

from mcp import Client, MCPError, StdioServerParameters


async def main() -> None:
    ctxc, root = sys.argv[1], sys.argv[2]
    calls = json.load(sys.stdin)
    out = {"calls": []}
    server = StdioServerParameters(command=ctxc, args=["mcp", "--root", root], cwd=root)
    async with Client(server) as client:
        out["protocol_version"] = client.protocol_version
        with warnings.catch_warnings():
            # ping is deprecated from the 2026-07-28 revision on; this server speaks the handshake ones.
            warnings.simplefilter("ignore")
            await client.send_ping()
        listed = await client.list_tools()
        out["tools"] = [tool.model_dump(mode="json", by_alias=True, exclude_none=True) for tool in listed.tools]
        for name, arguments in calls:
            try:
                result = await client.call_tool(name, arguments)
                out["calls"].append({"is_error": bool(result.is_error), "texts": [c.text for c in result.content]})
            except MCPError as e:
                out["calls"].append({"error": e.error.code, "message": e.error.message})
    print(json.dumps(out))


asyncio.run(main())
