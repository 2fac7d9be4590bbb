# Installation: headers, libraries, fp8-opt and FP8MLIRConfig.cmake (filled in below).
