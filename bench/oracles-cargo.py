"""What cargo itself says of the crates a `use` names (bench/oracles.sh; ADR-0022): a crate
not declared in the using crate's Cargo.toml does not compile, so every `FROM -> pkg:NAME`
edge on stdin (`cargo run --release --example imports -- ROOT --packages`) must name the
crate's own library, a sysroot crate, or a dependency of the nearest Cargo.toml with a
[package] above FROM (any section: [dependencies], dev-, build-, target.*). Prints the count
and every edge that is not declared: a resolution mistake of ours."""
import os
import sys
import tomllib

root = sys.argv[1]
SYSROOT = {"std", "core", "alloc", "proc_macro", "test"}
manifests = {}


def manifest_of(path):
    """The folder of the nearest Cargo.toml with a [package] above `path`, and its names."""
    d = os.path.dirname(path)
    while True:
        if d not in manifests:
            names = None
            f = os.path.join(root, d, "Cargo.toml")
            if os.path.isfile(f):
                with open(f, "rb") as fh:
                    t = tomllib.load(fh)
                if "package" in t:
                    names = set()
                    pkg = t["package"]["name"]
                    names.add(t.get("lib", {}).get("name", pkg))
                    tables = [t]
                    tables += list(t.get("target", {}).values())
                    for table in tables:
                        for key in ("dependencies", "dev-dependencies", "build-dependencies"):
                            names.update(table.get(key, {}).keys())
                    names = {n.replace("-", "_") for n in names}
            manifests[d] = names
        if manifests[d] is not None:
            return d, manifests[d]
        if not d:
            return None, set()
        d = os.path.dirname(d)


edges = 0
crates = set()
bad = []
for line in sys.stdin:
    frm, sep, to = line.rstrip("\n").partition(" -> ")
    if not sep or not to.startswith("pkg:") or not frm.endswith(".rs"):
        continue
    name = to[4:].split("::")[0]
    edges += 1
    crates.add(name)
    folder, declared = manifest_of(frm)
    if name not in SYSROOT and name not in declared:
        bad.append(f"{frm} -> {to} (not in {folder or '?'}/Cargo.toml)")
print(f"rust: {edges} file -> crate edges, {len(crates)} crates, {len(bad)} not declared where used")
for b in bad[:40]:
    print("  " + b)
