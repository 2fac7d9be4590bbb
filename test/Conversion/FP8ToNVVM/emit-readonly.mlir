// A directory fp8-emit may not write into: an error naming the file it
// could not write, at the first op that has a kernel, and nothing written
// (not even a temporary). Root writes anywhere, so this runs as a user only.
// REQUIRES: non-root-user
// RUN: rm -rf %t && mkdir -p %t && chmod a-w %t
// RUN: not fp8-opt %S/amax-ptx.mlir --fp8-emit=dir=%t 2>&1 | FileCheck %s
// RUN: chmod u+w %t && ls -A %t | count 0
// CHECK: amax-ptx.mlir:{{[1-9][0-9]*}}:{{[0-9]+}}: error: cannot write {{.*}}.ptx: Permission denied
