"""Lists what MCP servers offer with the official Python MCP client (PyPI `mcp`), for
tests/runtimes/mcp_servers.rs to compare with `ctxc mcp record`'s record.

Usage: python list.py < servers.json, where servers.json maps a server's name to its
{command, args, env}. Prints one JSON object: each server's protocol version, serverInfo, and its
tools, prompts and resources (every page, the members the server sent), or null for a list whose
capability the server does not announce.
"""

import asyncio
import json
import os
import sys

from mcp import ClientSession, StdioServerParameters, types
from mcp.client.stdio import stdio_client


def dump(items):
    return [item.model_dump(mode="json", by_alias=True, exclude_unset=True) for item in items]


async def every_page(call, member):
    items, cursor = [], None
    while True:
        result = await call(params=types.PaginatedRequestParams(cursor=cursor) if cursor else None)
        items.extend(getattr(result, member))
        cursor = result.next_cursor
        if not cursor:
            return dump(items)


async def one(config):
    env = dict(os.environ)
    env.update(config.get("env", {}))
    params = StdioServerParameters(command=config["command"], args=config.get("args", []), env=env, cwd=config.get("cwd"))
    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write) as session:
            init = await session.initialize()
            caps = init.capabilities
            out = {
                "protocol_version": init.protocol_version,
                "server_info": init.server_info.model_dump(mode="json", by_alias=True, exclude_unset=True),
                "tools": await every_page(session.list_tools, "tools") if caps.tools is not None else [],
                "prompts": await every_page(session.list_prompts, "prompts") if caps.prompts is not None else None,
                "resources": await every_page(session.list_resources, "resources") if caps.resources is not None else None,
            }
            return out


async def main():
    servers = json.load(sys.stdin)
    out = {}
    for name in sorted(servers):
        out[name] = await one(servers[name])
    print(json.dumps(out))


asyncio.run(main())
