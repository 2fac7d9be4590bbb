// RUN: fp8-opt %s -split-input-file -verify-diagnostics

// A tile has exactly two extents.
// expected-error @+1 {{tile [1, 2, 3] must have 2 extents [rows, cols]}}
func.func @f() attributes {a = #fp8.scaling<tile = [1, 2, 3], scale = f32>}

// -----

// Extents are positive; `*` spans a whole dimension.
// expected-error @+1 {{tile [0, 128] has a non-positive extent; use '*' for the whole dimension}}
func.func @f() attributes {a = #fp8.scaling<tile = [0, 128], scale = f32>}

// -----

// The same rule holds for #fp8.tile.
// expected-error @+1 {{tile [1] must have 2 extents [rows, cols]}}
func.func @f() attributes {a = #fp8.tile<[1]>}

// -----

// Scales are f32 or E8M0.
// expected-error @+1 {{scale type must be f32 or f8E8M0FNU, got 'f16'}}
func.func @f() attributes {a = #fp8.scaling<tile = [1, 32], scale = f16>}

// -----

// E8M0 holds only powers of two, so an unrounded scale does not fit.
// expected-error @+1 {{f8E8M0FNU scales hold only powers of two: use round = pow2_ceil or pow2_floor}}
func.func @f() attributes {a = #fp8.scaling<tile = [1, 32], scale = f8E8M0FNU>}

// -----

// expected-error @+1 {{unknown scale rounding 'up', expected exact, pow2_ceil or pow2_floor}}
func.func @f() attributes {a = #fp8.scaling<tile = [1, 32], round = up>}

// -----

// expected-error @+1 {{unknown #fp8.scaling parameter 'block', expected tile, scale or round}}
func.func @f() attributes {a = #fp8.scaling<block = [1, 32]>}

// -----

// expected-error @+1 {{duplicate #fp8.scaling parameter 'tile'}}
func.func @f() attributes {a = #fp8.scaling<tile = [1, 32], tile = [1, 64]>}

// -----

// expected-error @+1 {{#fp8.scaling needs a tile}}
func.func @f() attributes {a = #fp8.scaling<scale = f32>}

// -----

// A '*' in a tile is the only non-integer extent.
// expected-error @+1 {{expected integer value}}
func.func @f() attributes {a = #fp8.scaling<tile = [1, ?], scale = f32>}

// -----

// Policies quantize to FP8 element types only.
// expected-error @+1 {{policy element type must be f8E4M3FN or f8E5M2, got 'bf16'}}
func.func @f() attributes {a = #fp8.policy<bf16, tile = [1, 128]>}

// -----

// A policy's K-block (its extent along the contracted dim) must be a multiple
// of one FP8 MMA's K.
// expected-error @+1 {{policy tile [1, 48] has K-block 48: a K-block must be '*' or a multiple of 32}}
func.func @f() attributes {a = #fp8.policy<f8E4M3FN, tile = [1, 48]>}

// -----

// expected-error @+1 {{#fp8.policy needs a tile}}
func.func @f() attributes {a = #fp8.policy<f8E4M3FN, scale = f32>}

// -----

// expected-error @+1 {{unknown recipe 'deepseek', expected one of tensorwise, delayed, rowwise, rowwise_gw_hp, blockwise, mxfp8, mxfp8_ocp}}
func.func @f() attributes {a = #fp8.recipe<deepseek>}

// -----

// expected-error @+1 {{expected a recipe preset name or a parameter}}
func.func @f() attributes {a = #fp8.recipe<>}

// -----

// Without a preset to start from, every role needs a policy.
// expected-error @+1 {{a recipe without a preset needs activation, weight and gradient policies}}
func.func @f() attributes {a = #fp8.recipe<activation = #fp8.policy<f8E4M3FN, tile = [1, 128]>>}

// -----

// expected-error @+1 {{unknown amax mode 'history', expected current or delayed<...>}}
func.func @f() attributes {a = #fp8.recipe<tensorwise, amax = history>}

// -----

// expected-error @+1 {{amax history length must be positive}}
func.func @f() attributes {a = #fp8.recipe<tensorwise, amax = delayed<0, max>>}

// -----

// expected-error @+1 {{unknown amax algorithm 'mean', expected max or most_recent}}
func.func @f() attributes {a = #fp8.recipe<tensorwise, amax = delayed<16, mean>>}

// -----

// expected-error @+1 {{unknown accumulation 'slow'}}
func.func @f() attributes {a = #fp8.recipe<tensorwise, accumulate = slow>}

// -----

// expected-error @+1 {{expected true or false}}
func.func @f() attributes {a = #fp8.recipe<tensorwise, stochastic_gradients = yes>}

// -----

// expected-error @+1 {{unknown matmul 'backward'}}
func.func @f() attributes {a = #fp8.recipe<tensorwise, high_precision = [backward]>}

// -----

// expected-error @+1 {{matmul 'wgrad' is listed twice in high_precision}}
func.func @f() attributes {a = #fp8.recipe<tensorwise, high_precision = [wgrad, wgrad]>}

// -----

// expected-error @+1 {{hadamard size must be 0 or a power of two, got 96}}
func.func @f() attributes {a = #fp8.recipe<blockwise, hadamard = 96>}

// -----

// expected-error @+1 {{margin must be non-negative, got -1}}
func.func @f() attributes {a = #fp8.recipe<delayed, margin = -1>}

// -----

// expected-error @+1 {{unknown #fp8.recipe parameter 'tile', expected activation, weight, gradient, amax, margin, accumulate, hadamard, stochastic_gradients or high_precision}}
func.func @f() attributes {a = #fp8.recipe<blockwise, tile = [1, 128]>}

// -----

// expected-error @+1 {{duplicate #fp8.recipe parameter 'margin'}}
func.func @f() attributes {a = #fp8.recipe<delayed, margin = 1, margin = 2>}

// -----

// Roles are one of three names.
// expected-error @+1 {{'fp8.role' must be "activation", "weight" or "gradient", got "input"}}
func.func @f(%x: tensor<4x4xbf16> {fp8.role = "input"}) { return }

// -----

// A role belongs to a tensor of floats.
// expected-error @+1 {{'fp8.role' needs a tensor of floats, argument #0 is 'i64'}}
func.func @f(%x: i64 {fp8.role = "weight"}) { return }

// -----

// The same on a declaration, which has no entry block to hold its
// arguments (fp8-fuzz found an assertion there): the type comes from the
// function type.
// expected-error @+1 {{'fp8.role' needs a tensor of floats, argument #1 is 'i64'}}
func.func private @declared(%x: tensor<4x4xbf16> {fp8.role = "weight"}, %s: i64 {fp8.role = "weight"})

// -----

// expected-error @+1 {{'fp8.seed' is a unit attribute of an i64 argument, argument #0 is 'i32'}}
func.func private @declared_seed(%s: i32 {fp8.seed})

// -----

// expected-error @+1 {{unknown fp8 argument attribute 'fp8.rol'}}
func.func @f(%x: tensor<4x4xbf16> {fp8.rol = "weight"}) { return }

// -----

// expected-error @+1 {{'fp8.role' is not valid on a result: roles belong to function arguments}}
func.func @f(%x: tensor<4x4xbf16>) -> (tensor<4x4xbf16> {fp8.role = "weight"}) { return %x : tensor<4x4xbf16> }

// -----

// fp8.monitor labels a returned statistic with a string.
// expected-error @+1 {{'fp8.monitor' is a string label of a quantization statistic, result #0 has 3 : i64}}
func.func @f(%x: tensor<2xi64>) -> (tensor<2xi64> {fp8.monitor = 3}) { return %x : tensor<2xi64> }

// -----

// expected-error @+1 {{'fp8.role' on an operation names the role of its single tensor result; 'func.func' has 0 results}}
func.func @f() attributes {fp8.role = "weight"} { return }

// -----

// A quantize may carry the role of the value it quantizes, checked the same way.
func.func @f(%x: tensor<4x64xf32>) {
  // expected-error @+1 {{'fp8.role' must be "activation", "weight" or "gradient", got "bias"}}
  %q, %s = fp8.quantize %x {fp8.role = "bias", scaling = #fp8.scaling<tile = [*, *], scale = f32>}
      : tensor<4x64xf32> -> tensor<4x64xf8E4M3FN>, tensor<1x1xf32>
  return
}

// -----

// expected-error @+1 {{'fp8.matmul' must be "fprop", "dgrad" or "wgrad" on an fp8.scaled_matmul}}
func.func @f() attributes {fp8.matmul = "fprop"} { return }

// -----

// expected-error @+1 {{'fp8.recipe' must be a #fp8.recipe, got "blockwise"}}
func.func @f() attributes {fp8.recipe = "blockwise"} { return }

// -----

// expected-error @+1 {{'fp8.seed' is a unit attribute of an i64 argument, argument #0 is 'i32'}}
func.func @f(%s: i32 {fp8.seed}) { return }

// -----

// expected-error @+1 {{unknown fp8 attribute 'fp8.unknown'}}
func.func @f() attributes {fp8.unknown = 1} { return }

// -----

// expected-error @+1 {{'fp8.amax_history' is a unit attribute of a ranked f32 tensor argument, argument #0 is 'tensor<16xbf16>'}}
func.func @f(%h: tensor<16xbf16> {fp8.amax_history}) { return }

// -----

// fp8.target records a module's chip: it belongs on the module.
// expected-error @+1 {{'fp8.target' must be a chip name (a string) on a builtin.module, got "sm_90a" on 'func.func'}}
func.func @f() attributes {fp8.target = "sm_90a"} { return }

// -----

// The chip is a name, not a number.
// expected-error @+1 {{'fp8.target' must be a chip name (a string) on a builtin.module, got 90 : i64 on 'builtin.module'}}
module attributes {fp8.target = 90} {}

// -----

// expected-error @+1 {{unknown FP8 format 'e3m4', expected e4m3, e5m2 or a #fp8.policy<...>}}
func.func @f() attributes {a = #fp8.recipe<blockwise, gradient = e3m4>}

// -----

// A format alone changes a preset's policy; without a preset there is none.
// expected-error @+1 {{'gradient = e5m2' changes a preset's format: start from a preset (#fp8.recipe<blockwise, gradient = e5m2>)}}
func.func @f() attributes {a = #fp8.recipe<gradient = e5m2>}
