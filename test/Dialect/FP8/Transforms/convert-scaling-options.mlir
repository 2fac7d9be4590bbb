// Bad options stop the pass with a diagnostic.
// RUN: not fp8-opt %s --fp8-convert-scaling=to=nvfp4 2>&1 | FileCheck %s --check-prefix=TARGET
// RUN: not fp8-opt %s --fp8-convert-scaling=rounding=up 2>&1 | FileCheck %s --check-prefix=ROUNDING
// RUN: not fp8-opt %s --fp8-convert-scaling=roles=bias 2>&1 | FileCheck %s --check-prefix=ROLE
// TARGET: error: unknown target recipe 'nvfp4', expected one of tensorwise, delayed, rowwise, rowwise_gw_hp, blockwise, mxfp8, mxfp8_ocp or a #fp8.recipe<...> attribute
// ROUNDING: error: unknown rounding 'up', expected nearest or stochastic
// ROLE: error: unknown role 'bias', expected activation, weight or gradient
func.func @empty() { return }
