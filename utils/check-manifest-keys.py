#!/usr/bin/env python3
"""Checks that every manifest key the Python package reads is in the schema.

The compiler writes the manifest with the names of
include/fp8/Conversion/FP8ToNVVM/ManifestSchema.h (its `inline constexpr
const char kName[] = "..."` constants: keys and fixed values); python/fp8_mlir
reads it with string literals. A manifest writer of the compiler
(lib/Conversion/FP8ToNVVM) that names a key as a bare literal
(`getNamedAttr("key", ...)`) rather than the schema's constant fails the
check, and so does a literal read as a key (`x["key"]`,
`x.get("key")`) that the schema lacks is a typo or a key the compiler no
longer writes, and fails the check. The package's few reads of its own dicts
are listed below, per file, and an entry no file reads fails too, so that
the list stays true. Standard library only; `make check` runs it.

  utils/check-manifest-keys.py [--schema HEADER] [--package DIR]
  utils/check-manifest-keys.py --self-test   # the check fails on a bad key
"""

import argparse
import ast
import os
import re
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCHEMA = os.path.join(ROOT, "include", "fp8", "Conversion", "FP8ToNVVM",
                      "ManifestSchema.h")
PACKAGE = os.path.join(ROOT, "python", "fp8_mlir")
WRITERS = os.path.join(ROOT, "lib", "Conversion", "FP8ToNVVM")

# A manifest entry named by a literal (`named` is the writers' shorthand).
BARE_KEY = re.compile(r'\b(?:getNamedAttr|named)\(\s*"')
CONSTANT = re.compile(r'inline\s+constexpr\s+const\s+char\s+(k\w+)\[\]\s*=\s*"([^"]*)"\s*;')

# Keys of the package's own dicts, not of the manifest, by file.
NOT_MANIFEST = {
    # The recipes' scaling table, by operand.
    "graphs.py": {"w", "x", "dy", "dy_w", "x_w"},
    # The AOT bundle's info.json.
    "aot.py": {"graph"},
    # The monitored statistics a layer gathers per result.
    "layers.py": {"tile_amax", "counts", "numel"},
    # A layer's description.
    "nn.py": {"bias"},
    # A function of the program, by name; a torch op's keyword argument.
    "fsdp.py": {"quantize_weight", "storage_offset"},
    # A launch's buffers by kernel parameter name (the kernel builders'
    # KernelSignature names, not manifest keys).
    "names.py": {"amax", "history", "source", "out", "dest"},
    # torch.fx nodes' keyword arguments and meta, which fx_emit reads.
    "fx_emit.py": {"tensor_meta", "val"},
    "fx_ops.py": {"alpha", "approximate", "beta", "bias", "dim0", "dim1",
                  "dims", "eps", "exponent", "keepdim", "other",
                  "rounding_mode", "stack_trace", "tensor_meta", "weight"},
}


def schema_names(path):
    """The string constants of the schema header: name -> value."""
    with open(path, encoding="utf-8") as f:
        return dict(CONSTANT.findall(f.read()))


def is_environment(node):
    """Whether `node` is os.environ (its keys are variables, not keys)."""
    return isinstance(node, ast.Attribute) and node.attr == "environ"


def key_reads(path):
    """(line, key) of each string literal read as a key in a Python file."""
    with open(path, encoding="utf-8") as f:
        tree = ast.parse(f.read(), path)
    for node in ast.walk(tree):
        key = None
        if (isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Load)
                and isinstance(node.slice, ast.Constant)
                and not is_environment(node.value)):
            key = node.slice.value
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
              and node.func.attr == "get" and node.args
              and isinstance(node.args[0], ast.Constant)
              and not is_environment(node.func.value)):
            key = node.args[0].value
        if isinstance(key, str):
            yield node.lineno, key


def bare_keys(writers, out=sys.stderr):
    """The number of entries the C++ writers name by a literal."""
    errors = 0
    for directory, _, files in os.walk(writers):
        for name in sorted(files):
            if not name.endswith(".cpp"):
                continue
            path = os.path.join(directory, name)
            with open(path, encoding="utf-8") as f:
                text = f.read()
            for match in BARE_KEY.finditer(text):
                print("%s:%d: a manifest key as a bare literal: name it in the "
                      "schema header" % (os.path.relpath(path, ROOT),
                                         text.count("\n", 0, match.start()) + 1),
                      file=out)
                errors += 1
    return errors


def check(schema, package, not_manifest, out=sys.stderr):
    """The number of errors, each printed to `out`."""
    names = set(schema_names(schema).values())
    if not names:
        print("%s: no key constants found" % schema, file=out)
        return 1
    errors = 0
    used = {name: set() for name in not_manifest}
    for directory, _, files in os.walk(package):
        for name in sorted(files):
            if not name.endswith(".py"):
                continue
            path = os.path.join(directory, name)
            own = not_manifest.get(name, set())
            for line, key in key_reads(path):
                if key in own:
                    used[name].add(key)
                elif key not in names:
                    print("%s:%d: manifest key '%s' is not in %s" %
                          (os.path.relpath(path, ROOT), line, key,
                           os.path.relpath(schema, ROOT)), file=out)
                    errors += 1
    for name, keys in sorted(not_manifest.items()):
        for key in sorted(keys - used[name]):
            print("%s: NOT_MANIFEST lists '%s' for %s, which no longer reads "
                  "it" % (os.path.relpath(__file__, ROOT), key, name), file=out)
            errors += 1
    return errors


def self_test():
    """The check passes on known keys and fails on an unknown one."""
    with tempfile.TemporaryDirectory() as tmp:
        schema = os.path.join(tmp, "Schema.h")
        with open(schema, "w") as f:
            f.write('inline constexpr const char kKernels[] = "kernels";\n'
                    'inline constexpr const char kGrid[] = "grid";\n')
        package = os.path.join(tmp, "pkg")
        os.mkdir(package)
        module = os.path.join(package, "reader.py")
        with open(module, "w") as f:
            f.write('def grids(m):\n'
                    '    return [k.get("grid") for k in m["kernels"]]\n')
        silent = open(os.devnull, "w")
        if check(schema, package, {}, silent) != 0:
            print("self-test: known keys were refused", file=sys.stderr)
            return 1
        with open(module, "a") as f:
            f.write('def blocks(m):\n'
                    '    return [k["blocks"] for k in m["kernels"]]\n')
        if check(schema, package, {}, silent) != 1:
            print("self-test: an unknown key passed", file=sys.stderr)
            return 1
        if check(schema, package, {"reader.py": {"stale"}}, silent) != 2:
            print("self-test: a stale NOT_MANIFEST entry passed",
                  file=sys.stderr)
            return 1
        with open(os.path.join(package, "Writer.cpp"), "w") as f:
            f.write('entries.push_back(b.getNamedAttr(\n    "grid", grid));\n')
        if bare_keys(package, silent) != 1:
            print("self-test: a bare key in a writer passed", file=sys.stderr)
            return 1
    print("check-manifest-keys: self-test passed")
    return 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--schema", default=SCHEMA)
    parser.add_argument("--package", default=PACKAGE)
    parser.add_argument("--writers", default=WRITERS)
    parser.add_argument("--self-test", action="store_true")
    args = parser.parse_args()
    if args.self_test:
        return self_test()
    errors = check(args.schema, args.package, NOT_MANIFEST)
    errors += bare_keys(args.writers)
    if errors:
        print("check-manifest-keys: %d error(s)" % errors, file=sys.stderr)
        return 1
    print("check-manifest-keys: passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
