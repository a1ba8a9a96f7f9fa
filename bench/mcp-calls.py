#!/usr/bin/env python3
"""Drives `context-graph mcp` over stdio by hand (JSON-RPC lines, standard library only):

    bench/mcp-calls.py BIN ROOT TOOL ARGS_JSON N

initializes a session, makes N sequential calls of TOOL with ARGS_JSON, and prints three
numbers: the wall time of the N calls in ns, the server's resident memory after them in KiB
(VmRSS) and its peak (VmHWM). Fails if any call is a tool error."""
import json
import subprocess
import sys
import time


def main():
    binary, root, tool, args, n = sys.argv[1], sys.argv[2], sys.argv[3], json.loads(sys.argv[4]), int(sys.argv[5])
    server = subprocess.Popen([binary, "--root", root, "mcp"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                              stderr=subprocess.DEVNULL)
    out = server.stdout

    def send(message):
        server.stdin.write((json.dumps(message) + "\n").encode())
        server.stdin.flush()

    def answer(wanted):
        while True:
            line = out.readline()
            if not line:
                sys.exit("the server closed its stdout")
            message = json.loads(line)
            if message.get("id") == wanted:
                return message

    send({"jsonrpc": "2.0", "id": 0, "method": "initialize",
          "params": {"protocolVersion": "2025-06-18", "capabilities": {},
                     "clientInfo": {"name": "bench", "version": "0"}}})
    answer(0)
    send({"jsonrpc": "2.0", "method": "notifications/initialized"})
    start = time.perf_counter_ns()
    for i in range(1, n + 1):
        send({"jsonrpc": "2.0", "id": i, "method": "tools/call", "params": {"name": tool, "arguments": args}})
        result = answer(i)
        if "error" in result or result["result"].get("isError"):
            sys.exit(f"call {i} failed: {result}")
    took = time.perf_counter_ns() - start
    status = {}
    with open(f"/proc/{server.pid}/status") as f:
        for line in f:
            key, _, value = line.partition(":")
            status[key] = value.split()[0] if value.split() else ""
    server.stdin.close()
    server.wait(timeout=30)
    print(took, status.get("VmRSS", "0"), status.get("VmHWM", "0"))


main()
