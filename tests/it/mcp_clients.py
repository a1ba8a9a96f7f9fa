"""Drives `context-graph mcp` with the MCP Python SDK (`pip install mcp jsonschema`), as an
agent's client would: a session over stdio, the tools listed, each called with the typed
arguments given, each answer's `structuredContent` checked against the tool's `outputSchema`
(JSON Schema draft 2020-12) and against the JSON of its text. Prints what it saw as one JSON
document for tests/it/mcp_clients.rs to judge; exits non-zero on the first answer that breaks
its own schema.

Usage: python3 mcp_clients.py BINARY ROOT CALLS_JSON, CALLS_JSON a list of [tool, arguments].
"""

import asyncio
import json
import sys

import jsonschema
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client


def field(obj, snake, camel):
    """A field of the SDK's models, as 2.x (snake_case) or 1.x (camelCase) names it."""
    if obj is None:
        return None
    if hasattr(obj, snake):
        return getattr(obj, snake)
    return getattr(obj, camel, None)


async def main(binary, root, calls):
    params = StdioServerParameters(command=binary, args=["mcp", "--root", root])
    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write) as session:
            init = await session.initialize()
            listed = (await session.list_tools()).tools
            seen = {
                "protocol": field(init, "protocol_version", "protocolVersion"),
                "tools": {},
                "calls": [],
            }
            validators = {}
            for tool in listed:
                output_schema = field(tool, "output_schema", "outputSchema")
                if output_schema is not None:
                    jsonschema.Draft202012Validator.check_schema(output_schema)
                    validators[tool.name] = jsonschema.Draft202012Validator(output_schema)
                seen["tools"][tool.name] = {
                    "input_schema": field(tool, "input_schema", "inputSchema"),
                    "has_output_schema": output_schema is not None,
                    "read_only": field(tool.annotations, "read_only_hint", "readOnlyHint"),
                }
            for name, arguments in calls:
                result = await session.call_tool(name, arguments)
                structured = field(result, "structured_content", "structuredContent")
                is_error = bool(field(result, "is_error", "isError"))
                text = "".join(
                    c.text for c in result.content if getattr(c, "type", None) == "text"
                )
                if not is_error and name in validators:
                    if structured is None:
                        sys.exit(f"{name} {arguments}: no structuredContent")
                    errors = list(validators[name].iter_errors(structured))
                    if errors:
                        sys.exit(f"{name} {arguments}: not valid against its outputSchema: {errors[0]}")
                    if structured != json.loads(text):
                        sys.exit(f"{name} {arguments}: structuredContent is not its text's JSON")
                seen["calls"].append(
                    {
                        "tool": name,
                        "arguments": arguments,
                        "is_error": is_error,
                        "structured": structured,
                        "text": text,
                    }
                )
            print(json.dumps(seen))


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], sys.argv[2], json.loads(sys.argv[3])))
