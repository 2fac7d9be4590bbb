#!/bin/bash
# Bundles build-sanitize/bin/fp8-fuzz (make fuzz) with the shared libraries
# it needs into OUT.tar.xz, for a campaign on a bigger Linux machine that has
# no LLVM (glibc >= Debian 12's). libLLVM.so's libxml2 and libz3 are never
# used by fp8-fuzz: stubs stand in for them. Usage: pack.sh OUT.tar.xz
set -eu
out=$(realpath -m "$1")
repo=$(cd "$(dirname "$0")/../../.." && pwd)
fuzz=$repo/build-sanitize/bin/fp8-fuzz
seeds=$repo/build-sanitize/fuzz/seeds
here=$(cd "$(dirname "$0")" && pwd)
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
mkdir -p "$stage/lib"
cp "$fuzz" "$here/run-campaign.sh" "$stage/"
cp -r "$seeds" "$stage/seeds"
# Everything fp8-fuzz loads but the C library and what every distribution
# has, resolved (copies, not symbolic links).
ldd "$fuzz" | awk '/=>/ {print $3}' |
  grep -v -E '/(libc|libm|libresolv|libgcc_s|libstdc\+\+|libz|libzstd|liblzma|libxml2|libz3|libicu[a-z]*)\.so' |
  xargs -I{} cp -L {} "$stage/lib/"
cp -L "$(ldd "$fuzz" | awk '/libtinfo/ {print $3}')" "$stage/lib/" 2>/dev/null || true
cc -shared -fPIC -o "$stage/lib/libxml2.so.2" -Wl,-soname,libxml2.so.2 \
  -Wl,--version-script="$here/xml-stub.map" "$here/xml-stub.c"
echo > "$stage/z3-stub.c"
cc -shared -fPIC -o "$stage/lib/libz3.so.4" -Wl,-soname,libz3.so.4 "$stage/z3-stub.c"
rm "$stage/z3-stub.c"
git -C "$repo" rev-parse HEAD > "$stage/commit"
tar -C "$stage" -cf - . | xz -6 -T0 > "$out"
ls -la "$out"
