#!/usr/bin/env bash
# The house measured from the imports (ADR-0007): the two-file circles and the longest files.
#
#   bench/house.sh [SRC_DIR] [TOP_N]
#
# A circle is two files under SRC_DIR (default: the project's `src/`) each naming the other in
# code: every `crate::…`, `super::…` and `self::…` path (groups `{a, b::{c}}` expanded, inline
# modules followed) is resolved to the deepest module file it reaches, `a/b.rs` or `a/b/mod.rs`.
# Comments, string literals and `#[cfg(test)]` modules are skipped (a test may reach across the
# room; the shape is the shipped code's), and so is a module naming one it is declared in (its
# room's front door, `a/mod.rs` or `a.rs`, is not the other half of a circle). Prints each circle,
# then the TOP_N (default 15) longest files and how many are over 600 lines.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
src=${1:-$here/../src}
top=${2:-15}
python3 - "$src" "$top" <<'PY'
import os, re, sys

src, top = sys.argv[1], int(sys.argv[2])

def strip(text):
    """Code without comments, string and char literals (their braces would mislead)."""
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            i = n if j < 0 else j
        elif text.startswith("/*", i):
            depth, i = 1, i + 2
            while i < n and depth:
                if text.startswith("/*", i): depth, i = depth + 1, i + 2
                elif text.startswith("*/", i): depth, i = depth - 1, i + 2
                else: i += 1
        elif re.match(r'b?r#*"', text[i:i + 8]) and (i == 0 or not (text[i - 1].isalnum() or text[i - 1] == "_")):
            m = re.match(r'b?r(#*)"', text[i:])
            if m:
                end = text.find('"' + m.group(1), i + m.end())
                i = n if end < 0 else end + 1 + len(m.group(1))
                out.append('""')
                continue
            i += 1
        elif c == '"' or (c == "b" and text.startswith('b"', i) and (i == 0 or not text[i - 1].isalnum())):
            i += 1 if c == '"' else 2
            while i < n and text[i] != '"':
                i += 2 if text[i] == "\\" else 1
            i += 1
            out.append('""')
        elif c == "'":
            m = re.match(r"'(\\u\{[0-9a-fA-F]+\}|\\x[0-9a-fA-F]{2}|\\.|[^\\'])'", text[i:])
            if m:
                i += m.end()
                out.append("' '")
            else:  # a lifetime
                out.append(c)
                i += 1
        else:
            out.append(c)
            i += 1
    return "".join(out)

files = {}
for root, _, names in os.walk(src):
    for name in names:
        if name.endswith(".rs"):
            rel = os.path.relpath(os.path.join(root, name), src).replace(os.sep, "/")
            files[rel] = open(os.path.join(root, name), encoding="utf-8").read()

def module_of(rel):
    parts = rel[:-3].split("/")
    if parts[-1] in ("mod", "lib", "main"):
        parts = parts[:-1]
    return parts

by_module = {tuple(module_of(f)): f for f in files}

def resolve(segments):
    """The deepest file a module path reaches."""
    for k in range(len(segments), -1, -1):
        f = by_module.get(tuple(segments[:k]))
        if f:
            return f
    return None

IDENT = r"[A-Za-z_][A-Za-z0-9_]*"

def expand(code, i):
    """The paths of the `use`-tree starting at code[i] (after `crate::` etc.), as lists."""
    paths, prefix = [], []
    while True:
        m = re.match(r"\s*(" + IDENT + r")\s*(::)?", code[i:])
        if m and not code[i:].lstrip().startswith("{"):
            prefix.append(m.group(1))
            i += m.end()
            if not m.group(2):
                return [prefix]
            continue
        m = re.match(r"\s*\{", code[i:])
        if not m:
            return [prefix]
        i += m.end()
        depth, start, items = 0, i, []
        while i < len(code):
            c = code[i]
            if c == "{": depth += 1
            elif c == "}" and depth == 0:
                items.append(code[start:i]); break
            elif c == "}": depth -= 1
            elif c == "," and depth == 0:
                items.append(code[start:i]); start = i + 1
            i += 1
        for item in items:
            item = item.strip()
            if not item:
                continue
            for p in expand(item, 0):
                paths.append(prefix + p)
        return paths or [prefix]

edges = {}
for rel, text in files.items():
    code = strip(text)
    base = module_of(rel)
    # inline modules: (start, end, path) by brace matching
    inline, tests = [], []
    for m in re.finditer(r"(#\[cfg\(test\)\]\s*)?\bmod\s+(" + IDENT + r")\s*\{", code):
        depth, j = 1, m.end()
        while j < len(code) and depth:
            depth += {"{": 1, "}": -1}.get(code[j], 0)
            j += 1
        inline.append((m.start(), j, m.group(2)))
        if m.group(1):
            tests.append((m.start(), j))
    def here(at):
        path = list(base)
        for s, e, name in inline:
            if s <= at < e:
                path.append(name)
        return path
    targets = set()
    for m in re.finditer(r"(?<![A-Za-z0-9_:])(crate|super|self)::", code):
        at, kind = m.start(), m.group(1)
        if any(s <= at < e for s, e in tests):
            continue
        cur = here(at)
        for p in expand(code, m.end()):
            if kind == "crate":
                full = p
            else:
                full, rest = list(cur), list(p)
                if kind == "super":
                    full = full[:-1]
                while rest and rest[0] == "super":
                    full, rest = full[:-1], rest[1:]
                full = full + rest
            f = resolve([s for s in full if s != "self"])
            if f and f != rel:
                targets.add(f)
    # a child naming an ancestor's front door is not a circle's half
    mine = module_of(rel)
    edges[rel] = {t for t in targets if module_of(t) != mine[:len(module_of(t))]}

circles = sorted({tuple(sorted((a, b))) for a in edges for b in edges[a]
                  if a in edges.get(b, ())})
print(f"circles: {len(circles)}")
for a, b in circles:
    print(f"  src/{a} <-> src/{b}")
lines = sorted(((t.count("\n"), f) for f, t in files.items()), reverse=True)
over = [f for n, f in lines if n > 600]
print(f"files: {len(files)}, lines: {sum(n for n, _ in lines)}, over 600 lines: {len(over)}")
for n, f in lines[:top]:
    print(f"  {n:6} src/{f}")
PY
