// fp8-emit needs a directory, something to emit, and a place it can write.
// RUN: not fp8-opt %s --fp8-emit 2>&1 | FileCheck %s --check-prefix=NODIR
// NODIR: error: fp8-emit needs a directory: --fp8-emit="dir=DIR chip=CHIP"

// A module whose functions only return their arguments has no kernels.
// RUN: rm -rf %t && not fp8-opt %s --fp8-emit=dir=%t 2>&1 | FileCheck %s --check-prefix=NOKERNEL
// NOKERNEL: error: no kernels to emit: the module has no ops to run

// A directory that is a file: an error naming it, nothing written.
// RUN: rm -rf %t.file && touch %t.file
// RUN: not fp8-opt %S/amax-ptx.mlir --fp8-emit=dir=%t.file 2>&1 | FileCheck %s --check-prefix=FILE
// FILE: amax-ptx.mlir:{{[1-9][0-9]*}}:{{[0-9]+}}: error: cannot create {{.*}}.file: {{.*}}
// RUN: test ! -s %t.file

// A directory under a file cannot be made: an error naming it.
// RUN: not fp8-opt %S/amax-ptx.mlir --fp8-emit=dir=%t.file/sub 2>&1 | FileCheck %s --check-prefix=UNDER
// UNDER: error: cannot create {{.*}}.file/sub: Not a directory

// A directory where manifest.json would go: an error before anything is
// written, so the earlier emission's files stay as they were (no new PTX,
// no temporaries).
// RUN: rm -rf %t.busy && mkdir -p %t.busy/manifest.json && echo old > %t.busy/old.ptx
// RUN: not fp8-opt %S/amax-ptx.mlir --fp8-emit=dir=%t.busy 2>&1 | FileCheck %s --check-prefix=BUSY
// BUSY: error: cannot write {{.*}}.busy/manifest.json: something other than a file is there
// RUN: ls -A %t.busy | FileCheck %s --check-prefix=BUSYLS
// BUSYLS: manifest.json
// BUSYLS-NEXT: old.ptx
// BUSYLS-NOT: {{.}}
// RUN: FileCheck %s --check-prefix=OLDPTX < %t.busy/old.ptx
// OLDPTX: old

// The old positional form says what to write instead.
// RUN: not fp8-opt %S/amax-ptx.mlir --fp8-emit=%t.old 2>&1 | FileCheck %s --check-prefix=OLD
// OLD: error: fp8-emit: '{{.*}}.old' is not an option: the directory is given as dir=, --fp8-emit=dir={{.*}}.old

// The manifest has a version and each kernel the location of its op; the
// PTX opens with a header that names the op and every parameter in order.
// RUN: rm -rf %t.ok && fp8-opt %S/amax-ptx.mlir --fp8-emit=dir=%t.ok -o /dev/null
// RUN: FileCheck %s --check-prefix=MANIFEST < %t.ok/manifest.json
// MANIFEST: "location": "{{.*}}amax-ptx.mlir:{{[0-9]+}}:{{[0-9]+}}"
// MANIFEST: "version": 2
func.func @nothing(%x: tensor<4x4xf32>) -> tensor<4x4xf32> {
  return %x : tensor<4x4xf32>
}
