# fp8-mlir: the two commands a user needs are `make demo` and `make check`.
# Both install what is missing (Debian 12, as root), configure and build.

LLVM_PREFIX ?= /usr/lib/llvm-22
BUILD_DIR   ?= build
INSTALL_DIR ?= $(CURDIR)/install
BUILD_TYPE  ?= Release
JOBS        ?= $(shell nproc)

# Debian packages the build and the tests need.
DEB_PACKAGES := llvm-22-dev llvm-22-tools libmlir-22-dev mlir-22-tools \
                clang-format-22 cmake ninja-build g++ python3 libgtest-dev

# check-python installs python/ with pip, offline (python/pyproject.toml).
DEB_PACKAGES += python3-pip python3-setuptools python3-wheel

# check-python's fp8_mlir.fx_emit tests trace and AOTAutograd-partition
# models; Debian 12's PyTorch (1.13, with functorch) is enough for them, and
# the tests that need PyTorch 2.x skip under it.
DEB_PACKAGES += python3-torch

# The sanitizer build and the fuzzers (check-sanitize, fuzz, fuzz-ci) compile
# with Debian's clang 22 and link its ASan/UBSan/libFuzzer runtimes.
DEB_PACKAGES += clang-22 libclang-rt-22-dev

FP8_OPT := $(BUILD_DIR)/bin/fp8-opt

.PHONY: all deps configure build check check-format check-lit check-run \
        check-embed check-gpu gpu-programs run-gpu-programs \
        check-gpu-programs gpu-python run-gpu-python check-python check-gpu-multi \
        gpu-fusion run-gpu-fusion check-docs check-readme check-manifest-keys \
        install demo docs format hooks clean

all: build

# Installs only what is missing; `apt-get update` runs only when something is.
deps:
	@missing=""; \
	for p in $(DEB_PACKAGES); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "install ok installed" \
	    || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "installing:$$missing"; \
	  SUDO=; [ "$$(id -u)" -eq 0 ] || SUDO=sudo; \
	  $$SUDO apt-get update -q && \
	  DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -q --no-install-recommends $$missing; \
	else \
	  echo "deps: all installed"; \
	fi

$(BUILD_DIR)/build.ninja:
	cmake -G Ninja -S . -B $(BUILD_DIR) \
	  -DCMAKE_BUILD_TYPE=$(BUILD_TYPE) \
	  -DMLIR_DIR=$(LLVM_PREFIX)/lib/cmake/mlir \
	  -DLLVM_EXTERNAL_LIT=$(LLVM_PREFIX)/bin/lit \
	  -DCMAKE_INSTALL_PREFIX=$(INSTALL_DIR)

configure: deps $(BUILD_DIR)/build.ninja

build: configure
	ninja -C $(BUILD_DIR) -j $(JOBS)

# The lit suite: dialect, passes, conversions, CPU integration (and PTX tests
# where ptxas exists).
check-lit: build
	ninja -C $(BUILD_DIR) -j $(JOBS) check-fp8

# Installs the package, builds examples/embed against it as a project of its
# own, and matches what its C++ and C programs print against the FileCheck
# directives in input.mlir and fp8-embed-c.c (and fp8-embed-rt.c's, on the
# installed libfp8rt, where CUDA's headers let the build make it). Outputs go to files first so
# that a program's exit status is checked too.
EMBED_BUILD_DIR ?= examples/embed/build
FILECHECK       := $(LLVM_PREFIX)/bin/FileCheck

check-embed: install
	rm -rf $(EMBED_BUILD_DIR)
	cmake -G Ninja -S examples/embed -B $(EMBED_BUILD_DIR) \
	  -DFP8MLIR_DIR=$(abspath $(INSTALL_DIR))/lib/cmake/fp8mlir \
	  -DMLIR_DIR=$(LLVM_PREFIX)/lib/cmake/mlir
	ninja -C $(EMBED_BUILD_DIR) -j $(JOBS)
	$(EMBED_BUILD_DIR)/fp8-embed examples/embed/input.mlir \
	  > $(EMBED_BUILD_DIR)/fp8-embed.out
	$(FILECHECK) examples/embed/input.mlir \
	  --input-file $(EMBED_BUILD_DIR)/fp8-embed.out
	$(EMBED_BUILD_DIR)/fp8-embed-c > $(EMBED_BUILD_DIR)/fp8-embed-c.out
	$(FILECHECK) examples/embed/fp8-embed-c.c \
	  --input-file $(EMBED_BUILD_DIR)/fp8-embed-c.out
	@if [ -x $(EMBED_BUILD_DIR)/fp8-embed-rt ]; then set -ex; \
	  $(EMBED_BUILD_DIR)/fp8-embed-rt runtime/test/plan \
	    > $(EMBED_BUILD_DIR)/fp8-embed-rt.out; \
	  $(FILECHECK) examples/embed/fp8-embed-rt.c \
	    --input-file $(EMBED_BUILD_DIR)/fp8-embed-rt.out; \
	else \
	  echo "check-embed: fp8-embed-rt skipped (libfp8rt not installed:" \
	    "no CUDA toolkit where fp8-mlir was built)"; \
	fi
	@echo "check-embed: passed"

# Every C++ source of the repository as clang-format-22 formats it
# (.clang-format); `make format` fixes what this reports.
CLANG_FORMAT ?= clang-format-22
FORMATTED     = $(shell git ls-files '*.cpp' '*.h' '*.c')

check-format: deps
	$(CLANG_FORMAT) --dry-run --Werror $(FORMATTED)
	@echo "check-format: passed"

# fp8-run's and libfp8rt's CPU-side tests (manifest and plan reader, options,
# tensor-map checks, runs on a fake libcuda; no GPU needed), where the CUDA
# toolkit's headers are: both include cuda.h and open libcuda at run time.
CUDA_HOME ?= /usr/local/cuda

check-run:
	@if [ -f $(CUDA_HOME)/include/cuda.h ]; then \
	  set -e; \
	  cmake -G Ninja -S tools/fp8-run -B $(RUN_BUILD_DIR) \
	    -DCMAKE_BUILD_TYPE=Release -DCUDAToolkit_ROOT=$(CUDA_HOME); \
	  ninja -C $(RUN_BUILD_DIR); \
	  ctest --test-dir $(RUN_BUILD_DIR) --output-on-failure; \
	else \
	  echo "check-run: skipped (no $(CUDA_HOME)/include/cuda.h)"; \
	fi

# The Python package's CPU tests (python/tests): graphs, cache, compiling
# with build/bin/fp8-opt, libfp8rt's signatures and its failures on the fake
# driver (where check-run built them; run.py lists each skip and its reason).
# Then `pip install` of a copy of python/ (so that no build files land in the
# tree), offline and without build isolation, into a scratch directory that
# the package is imported from; skipped where $(PYTHON) lacks pip,
# setuptools or wheel (DEB_PACKAGES has them).
PIP_CHECK_DIR ?= $(BUILD_DIR)/pip-install-check

check-python: build
	FP8_OPT=$(abspath $(FP8_OPT)) \
	  $(if $(wildcard $(RUN_BUILD_DIR)/lib/libfp8rt.so),FP8RT_LIBRARY=$(abspath $(RUN_BUILD_DIR)/lib/libfp8rt.so)) \
	  $(if $(wildcard $(RUN_BUILD_DIR)/runtime/fake-cuda/libcuda.so.1),FP8RT_FAKE_CUDA=$(abspath $(RUN_BUILD_DIR)/runtime/fake-cuda)) \
	  $(PYTHON) python/tests/run.py
	$(PYTHON) test/Integration/GPU/check_fusion.py --self-test
	$(PYTHON) -m unittest discover -s test/Integration/GPU -p 'test_*.py'
	@if $(PYTHON) -c 'import importlib.util as u, setuptools.build_meta, wheel; \
	    assert u.find_spec("pip")' 2>/dev/null; then \
	  set -e; rm -rf $(PIP_CHECK_DIR); mkdir -p $(PIP_CHECK_DIR)/src; \
	  cp -r python/pyproject.toml python/fp8_mlir $(PIP_CHECK_DIR)/src/; \
	  $(PYTHON) -m pip install -q --no-build-isolation --no-index --no-deps \
	    --root-user-action=ignore --target $(PIP_CHECK_DIR)/site $(PIP_CHECK_DIR)/src; \
	  cd $(PIP_CHECK_DIR) && PYTHONPATH=site $(PYTHON) -c 'import os, fp8_mlir; \
	    assert os.path.abspath(fp8_mlir.__file__).startswith(os.path.abspath("site")), fp8_mlir.__file__; \
	    print("check-python: pip install ./python:", fp8_mlir.__file__)'; \
	else \
	  echo "check-python: pip install skipped ($(PYTHON) lacks pip, setuptools or wheel)"; \
	fi
	@echo "check-python: passed"

# Every relative link of the repository's Markdown files resolves, anchors
# included (python3's standard library only; under a second). After deps:
# a fresh Debian 12 may not have python3 yet.
check-docs: deps
	$(PYTHON) utils/check-doc-links.py

# The shell commands of README.md's "first hour" section, run as written
# from the repository root (utils/check-readme-commands.py: the blocks
# marked `run`; those that need a GPU or PyTorch are skipped and listed),
# after the checker's own test. Outputs in build/first-hour. Under 10 s.
check-readme: build
	$(PYTHON) utils/check-readme-commands.py --self-test
	$(PYTHON) utils/check-readme-commands.py --fp8-opt $(FP8_OPT)

# The manifest keys python/fp8_mlir reads are the schema's
# (ManifestSchema.h); the self-test shows that a bad key fails.
check-manifest-keys: deps
	$(PYTHON) utils/check-manifest-keys.py --self-test
	$(PYTHON) utils/check-manifest-keys.py

check: check-docs check-manifest-keys check-format check-lit check-run \
       check-python check-embed check-readme

# The GPU tests, on the GPU machine (CUDA and PyTorch, no LLVM/MLIR; see
# test/Integration/GPU/README.md): builds fp8-run on its own in build-run/,
# emits the kernels of test/Integration/GPU/quantize.mlir (and gemm.mlir, once
# it exists, into GPU_KERNEL_DIR/gemm) where fp8-opt exists (elsewhere it uses
# those already in GPU_KERNEL_DIR), runs them on seeded inputs, plain and with
# special values, and checks every quantization output bit for bit against
# oracle.py and PyTorch, and every GEMM against a float64 reference and
# torch._scaled_mm.
RUN_BUILD_DIR  ?= build-run
GPU_KERNEL_DIR ?= $(BUILD_DIR)/gpu
GPU_DUMP_DIR   ?= $(BUILD_DIR)/gpu-dump
PYTHON         ?= python3
FP8_RUN        := $(RUN_BUILD_DIR)/bin/fp8-run
CHECK_QUANTIZE := $(PYTHON) test/Integration/GPU/check_quantize.py
CHECK_GEMM     := $(PYTHON) test/Integration/GPU/check_gemm.py
SCALE_OUTLIERS := $(PYTHON) test/Integration/GPU/scale_outliers.py
GEMM_MLIR      := test/Integration/GPU/gemm.mlir
# The quantization kernels' vectorized paths that quantize.mlir leaves out.
FAST_PATHS_MLIR := test/Integration/GPU/quantize-fast-paths.mlir
CHECK_PROGRAM  := $(PYTHON) test/Integration/GPU/check_program.py
# Whole programs, NAME:RECIPE: test/Integration/GPU/programs/NAME.mlir (whose
# function is NAME) compiled with the recipe preset into
# GPU_KERNEL_DIR/programs/NAME-RECIPE, run as one launch plan (fp8-run
# --function) and checked by check_program.py.
# RECIPE "none": a program written at the fp8 level, compiled without
# --fp8-quantize-matmuls and checked without the end-to-end graph (so the
# replay must compare every result: check_program.py fails on a result that
# no rule compared); rowwise_gw_hp's graph keeps Wgrad in high precision.
# RECIPE PRESET+hN: the preset with a Hadamard rotation of size N
# (recipe="#fp8.recipe<PRESET, hadamard = N>"; a `#` cannot be written in
# this variable); check_program.py's --recipe takes the same spelling.
GPU_PROGRAMS   ?= linear_fwd_bwd:blockwise linear_fwd_bwd:tensorwise \
                  linear_fwd_bwd:rowwise linear_fwd_bwd:mxfp8 \
                  linear_fwd_bwd:delayed linear_fwd_bwd:delayed+h128 \
                  mlp_block:delayed \
                  linear_fwd_bwd:rowwise_gw_hp mlp_block:rowwise_gw_hp \
                  quantized_fprop:none \
                  mlp_block:blockwise mlp_block:tensorwise \
                  linear_fwd_bwd:blockwise+h128 linear_fwd_bwd:mxfp8+h32 \
                  mlp_block:blockwise+h128
# Programs whose run with special values (--specials: inf, huge, subnormal
# inputs) is a known failure, skipped with a note: docs/KnownIssues.md.
GPU_PROGRAMS_KNOWN_SPECIALS ?= mlp_block:blockwise+h128
# The chip the programs are compiled for (--fp8-pipeline's chip=).
GPU_CHIP       ?= sm_90a

check-gpu:
	cmake -G Ninja -S tools/fp8-run -B $(RUN_BUILD_DIR) -DCMAKE_BUILD_TYPE=Release
	ninja -C $(RUN_BUILD_DIR)
	ctest --test-dir $(RUN_BUILD_DIR) --output-on-failure
	@if [ -f $(BUILD_DIR)/build.ninja ]; then ninja -C $(BUILD_DIR) fp8-opt; fi
	@if [ -x $(FP8_OPT) ]; then \
	  echo "$(FP8_OPT) test/Integration/GPU/quantize.mlir --fp8-emit=dir=$(GPU_KERNEL_DIR)"; \
	  $(FP8_OPT) test/Integration/GPU/quantize.mlir \
	    --fp8-emit=dir=$(GPU_KERNEL_DIR) > /dev/null || exit 1; \
	elif [ -f $(GPU_KERNEL_DIR)/manifest.json ]; then \
	  echo "check-gpu: no $(FP8_OPT); using the kernels in $(GPU_KERNEL_DIR)"; \
	else \
	  echo "check-gpu: no $(FP8_OPT) and no $(GPU_KERNEL_DIR)/manifest.json:" \
	    "emit the kernels where MLIR is (make build, then this target" \
	    "writes them before it needs a GPU) and copy $(GPU_KERNEL_DIR) here" >&2; \
	  exit 1; \
	fi
	@# The GEMM kernels, emitted here too, before anything needs a GPU.
	@if [ ! -f $(GEMM_MLIR) ]; then \
	  echo "check-gpu: no $(GEMM_MLIR) yet; no GEMM kernels"; \
	elif [ -x $(FP8_OPT) ]; then \
	  echo "$(FP8_OPT) $(GEMM_MLIR) --fp8-emit=dir=$(GPU_KERNEL_DIR)/gemm"; \
	  $(FP8_OPT) $(GEMM_MLIR) --fp8-emit=dir=$(GPU_KERNEL_DIR)/gemm \
	    > /dev/null || exit 1; \
	elif [ -f $(GPU_KERNEL_DIR)/gemm/manifest.json ]; then \
	  echo "check-gpu: no $(FP8_OPT); using the kernels in $(GPU_KERNEL_DIR)/gemm"; \
	else \
	  echo "check-gpu: no $(FP8_OPT) and no $(GPU_KERNEL_DIR)/gemm/manifest.json:" \
	    "emit the kernels where MLIR is and copy $(GPU_KERNEL_DIR) here" >&2; \
	  exit 1; \
	fi
	@# The quantization kernels' vectorized paths, emitted here too.
	@if [ -x $(FP8_OPT) ]; then \
	  echo "$(FP8_OPT) $(FAST_PATHS_MLIR) --fp8-emit=dir=$(GPU_KERNEL_DIR)/fast-paths"; \
	  $(FP8_OPT) $(FAST_PATHS_MLIR) --fp8-emit=dir=$(GPU_KERNEL_DIR)/fast-paths \
	    > /dev/null || exit 1; \
	elif [ -f $(GPU_KERNEL_DIR)/fast-paths/manifest.json ]; then \
	  echo "check-gpu: no $(FP8_OPT); using the kernels in $(GPU_KERNEL_DIR)/fast-paths"; \
	else \
	  echo "check-gpu: no $(FP8_OPT) and no $(GPU_KERNEL_DIR)/fast-paths/manifest.json:" \
	    "emit the kernels where MLIR is and copy $(GPU_KERNEL_DIR) here" >&2; \
	  exit 1; \
	fi
	@# The programs' launch plans, emitted here too.
	@$(MAKE) --no-print-directory gpu-programs gpu-fusion
	rm -rf $(GPU_DUMP_DIR)
	$(FP8_RUN) tools/fp8-run/test/copy/manifest.json --iters 0 \
	  --dump $(GPU_DUMP_DIR)/copy
	cmp $(GPU_DUMP_DIR)/copy/copy_f32/input.bin \
	  $(GPU_DUMP_DIR)/copy/copy_f32/output.bin
	$(FP8_RUN) tools/fp8-run/test/tma/manifest.json --iters 0 \
	  --dump $(GPU_DUMP_DIR)/tma
	cmp $(GPU_DUMP_DIR)/tma/tma_copy_f8/input.bin \
	  $(GPU_DUMP_DIR)/tma/tma_copy_f8/output.bin
	$(CHECK_QUANTIZE) --self-test
	$(FP8_RUN) $(GPU_KERNEL_DIR)/manifest.json --iters 0 --seed 0 \
	  --dump $(GPU_DUMP_DIR)/seed0
	$(CHECK_QUANTIZE) $(GPU_DUMP_DIR)/seed0
	$(CHECK_QUANTIZE) --self-test $(GPU_DUMP_DIR)/seed0
	$(FP8_RUN) $(GPU_KERNEL_DIR)/manifest.json --iters 0 --seed 1 --specials \
	  --dump $(GPU_DUMP_DIR)/specials
	$(CHECK_QUANTIZE) $(GPU_DUMP_DIR)/specials
	$(FP8_RUN) $(GPU_KERNEL_DIR)/fast-paths/manifest.json --iters 0 --seed 0 \
	  --dump $(GPU_DUMP_DIR)/fast-paths
	$(CHECK_QUANTIZE) $(GPU_DUMP_DIR)/fast-paths
	$(FP8_RUN) $(GPU_KERNEL_DIR)/fast-paths/manifest.json --iters 0 --seed 1 \
	  --specials --dump $(GPU_DUMP_DIR)/fast-paths-specials
	$(CHECK_QUANTIZE) $(GPU_DUMP_DIR)/fast-paths-specials
	@if [ -f $(GEMM_MLIR) ]; then \
	  set -x; \
	  $(FP8_RUN) $(GPU_KERNEL_DIR)/gemm/manifest.json --iters 0 --seed 0 \
	    --dump $(GPU_DUMP_DIR)/gemm && \
	  $(CHECK_GEMM) --self-test && \
	  $(CHECK_GEMM) $(GPU_DUMP_DIR)/gemm && \
	  $(FP8_RUN) $(GPU_KERNEL_DIR)/gemm/manifest.json --iters 0 --seed 1 \
	    --specials --dump $(GPU_DUMP_DIR)/gemm-specials && \
	  $(CHECK_GEMM) $(GPU_DUMP_DIR)/gemm-specials && \
	  $(SCALE_OUTLIERS) $(GPU_DUMP_DIR)/gemm \
	    $(GPU_DUMP_DIR)/gemm-outlier-inputs && \
	  $(FP8_RUN) $(GPU_KERNEL_DIR)/gemm/manifest.json --iters 0 \
	    --inputs-from $(GPU_DUMP_DIR)/gemm-outlier-inputs \
	    --dump $(GPU_DUMP_DIR)/gemm-outliers && \
	  $(CHECK_GEMM) --no-scaled-mm $(GPU_DUMP_DIR)/gemm-outliers; \
	fi
	@$(MAKE) --no-print-directory run-gpu-programs run-gpu-fusion
	@$(MAKE) --no-print-directory gpu-python run-gpu-python
	@echo "check-gpu: passed"

# The programs alone: emits them where fp8-opt exists (gpu-programs), builds
# fp8-run, and runs and checks each (run-gpu-programs), seeded and with
# special values.
gpu-programs:
	@for p in $(GPU_PROGRAMS); do \
	  name=$${p%%:*}; recipe=$${p#*:}; dir=$(GPU_KERNEL_DIR)/programs/$$name-$$recipe; \
	  case $$recipe in *+h*) spec="\"#fp8.recipe<$${recipe%%+h*}, hadamard = $${recipe##*+h}>\"";; \
	    *) spec=$$recipe;; esac; \
	  if [ $$recipe = none ]; then set -- --fp8-legalize --canonicalize; \
	  else set -- "--fp8-pipeline=recipe=$$spec chip=$(GPU_CHIP)"; fi; \
	  if [ -x $(FP8_OPT) ]; then \
	    echo "$(FP8_OPT) test/Integration/GPU/programs/$$name.mlir '$$*' --fp8-emit=dir=$$dir"; \
	    $(FP8_OPT) test/Integration/GPU/programs/$$name.mlir "$$@" \
	      --fp8-emit=dir=$$dir > /dev/null || exit 1; \
	  elif [ -f $$dir/manifest.json ]; then \
	    echo "check-gpu: no $(FP8_OPT); using the program in $$dir"; \
	  else \
	    echo "check-gpu: no $(FP8_OPT) and no $$dir/manifest.json:" \
	      "emit the programs where MLIR is and copy $(GPU_KERNEL_DIR) here" >&2; \
	    exit 1; \
	  fi; \
	done

run-gpu-programs:
	@rm -rf $(GPU_DUMP_DIR)/programs
	$(CHECK_PROGRAM) --self-test
	@failed=; for p in $(GPU_PROGRAMS); do \
	  name=$${p%%:*}; recipe=$${p#*:}; dir=$(GPU_KERNEL_DIR)/programs/$$name-$$recipe; \
	  rflag="--recipe $$recipe"; [ $$recipe != none ] || rflag=; \
	  for run in "seed0:--seed 0" "specials:--seed 1 --specials"; do \
	    case " $(GPU_PROGRAMS_KNOWN_SPECIALS) " in *" $$p "*) \
	      if [ $${run%%:*} = specials ]; then \
	        echo "run-gpu-programs: skipping $$p with special values" \
	          "(a known failure: docs/KnownIssues.md)"; continue; \
	      fi;; esac; \
	    dump=$(GPU_DUMP_DIR)/programs/$$name-$$recipe-$${run%%:*}; \
	    echo "$(FP8_RUN) $$dir/manifest.json --function $$name --iters 0 $${run#*:} --dump $$dump"; \
	    $(FP8_RUN) $$dir/manifest.json --function $$name --iters 0 $${run#*:} \
	      --dump $$dump || exit 1; \
	    echo "$(CHECK_PROGRAM) $$dump $$dir/manifest.json $$rflag"; \
	    $(CHECK_PROGRAM) $$dump $$dir/manifest.json $$rflag || \
	      failed="$$failed $$name-$$recipe-$${run%%:*}"; \
	  done; \
	done; \
	if [ -n "$$failed" ]; then echo "run-gpu-programs: FAILED:$$failed" >&2; exit 1; fi

# Producer fusion on the GPU (test/Integration/GPU/check_fusion.py): its
# programs, each fused (fp8-fuse-quantization) and unfused, are emitted into
# FUSION_DIR where fp8-opt exists (gpu-fusion; carry FUSION_DIR otherwise),
# run through fp8-run on the same inputs, seeded and with special values,
# and compared byte for byte (run-gpu-fusion).
FUSION_DIR   ?= $(BUILD_DIR)/fusion-check
CHECK_FUSION := $(PYTHON) test/Integration/GPU/check_fusion.py

gpu-fusion:
	@if [ -x $(FP8_OPT) ]; then \
	  $(CHECK_FUSION) --emit $(FUSION_DIR) --fp8-opt $(FP8_OPT) > /dev/null; \
	elif [ -f $(FUSION_DIR)/fused/manifest.json ]; then \
	  echo "check-gpu: no $(FP8_OPT); using the programs in $(FUSION_DIR)"; \
	else \
	  echo "check-gpu: no $(FP8_OPT) and no $(FUSION_DIR):" \
	    "emit them where MLIR is and copy $(FUSION_DIR) here" >&2; \
	  exit 1; \
	fi

run-gpu-fusion:
	$(CHECK_FUSION) $(FUSION_DIR) --fp8-run $(FP8_RUN)

# The Python package on the GPU (test/Integration/GPU/check_nn.py, and
# check_monitor.py for the health statistics):
# gpu-python compiles the layers its tests use into PY_CACHE where fp8-opt
# exists (carry PY_CACHE to the GPU machine otherwise); run-gpu-python runs
# them through libfp8rt (build-run/lib/libfp8rt.so).
PY_CACHE ?= $(BUILD_DIR)/fp8-cache
CHECK_NN := $(PYTHON) test/Integration/GPU/check_nn.py
CHECK_MONITOR := $(PYTHON) test/Integration/GPU/check_monitor.py

gpu-python:
	@if [ -x $(FP8_OPT) ]; then \
	  FP8_OPT=$(abspath $(FP8_OPT)) FP8_MLIR_CACHE=$(abspath $(PY_CACHE)) \
	    $(CHECK_NN) --aot > /dev/null && \
	  FP8_OPT=$(abspath $(FP8_OPT)) FP8_MLIR_CACHE=$(abspath $(PY_CACHE)) \
	    $(CHECK_MONITOR) --aot > /dev/null; \
	else \
	  echo "check-gpu: no $(FP8_OPT); check_nn.py uses the cache $(PY_CACHE)"; \
	fi

run-gpu-python:
	FP8_MLIR_CACHE=$(abspath $(PY_CACHE)) $(CHECK_NN)
	FP8_MLIR_CACHE=$(abspath $(PY_CACHE)) $(CHECK_MONITOR)

# Two or more GPUs: fp8_mlir.nn under FSDP2 (check_fsdp.py) against one GPU,
# with bf16 and FP8 weight all-gather.
CHECK_FSDP := $(PYTHON) test/Integration/GPU/check_fsdp.py
NPROC      ?= 2

check-gpu-multi:
	@if [ -x $(FP8_OPT) ]; then \
	  FP8_OPT=$(abspath $(FP8_OPT)) FP8_MLIR_CACHE=$(abspath $(PY_CACHE)) \
	    $(CHECK_FSDP) --aot --nproc $(NPROC); \
	fi
	FP8_MLIR_CACHE=$(abspath $(PY_CACHE)) $(CHECK_FSDP) --nproc $(NPROC) --fp8-all-gather

check-gpu-programs: gpu-programs
	cmake -G Ninja -S tools/fp8-run -B $(RUN_BUILD_DIR) -DCMAKE_BUILD_TYPE=Release
	ninja -C $(RUN_BUILD_DIR)
	@$(MAKE) --no-print-directory run-gpu-programs
	@echo "check-gpu-programs: passed"

# --prefix, because the build directory may have been configured with
# another CMAKE_INSTALL_PREFIX (the package is relocatable). Installs
# fp8-opt, the libraries, headers and CMake package (lib/cmake/fp8mlir),
# libfp8rt with its headers and package (lib/cmake/fp8rt) and fp8-run where
# the CUDA toolkit is (skipped with a message where not), and the Python
# package's sources in share/fp8-mlir/python for pip (docs/Python.md).
install: build
	cmake --install $(BUILD_DIR) --prefix $(abspath $(INSTALL_DIR))

docs: configure
	ninja -C $(BUILD_DIR) mlir-doc
	@echo "generated references: $(BUILD_DIR)/docs/"

demo: build
	@sh examples/demo.sh $(FP8_OPT)

format: deps
	$(CLANG_FORMAT) -i $(FORMATTED)

# A commit-msg hook that keeps subjects under 72 characters and asks for a
# body (docs/Design.md, habits).
hooks:
	install -D -m 755 utils/commit-msg "$$(git rev-parse --git-path hooks)/commit-msg"
	@echo "hooks: installed .git/hooks/commit-msg"

clean:
	rm -rf $(BUILD_DIR) $(INSTALL_DIR) examples/embed/build

#===----------------------------------------------------------------------===#
# Sanitizers and fuzzing (docs/Fuzzing.md)
#===----------------------------------------------------------------------===#

.PHONY: check-sanitize fuzz fuzz-ci fuzz-run fuzz-manifest fuzz-manifest-ci

# The sanitizer build: fp8-opt and the unit tests compiled by clang 22 with
# ASan and UBSan and the project's assertions (FP8_ENABLE_ASSERTIONS; the
# installed LLVM has none), in SANITIZE_BUILD_DIR, and the lit suite run on
# them. The same objects serve the fuzzer (FP8_BUILD_FUZZER adds libFuzzer's
# coverage instrumentation; `make fuzz`), so CI compiles the project twice,
# not three times. -fno-sanitize=vptr: LLVM's classes have no RTTI to check.
# allow_user_poisoning=0: libMLIR (not instrumented) poisons memory that the
# instrumented code then reads legitimately (a false use-after-poison).
# abort_on_error=1: a report aborts, so `not fp8-opt` in a test cannot pass
# because a sanitizer exited with 1.
# Cost, measured on a 2-core machine (2026-11-23): configure 0.3 min, build
# 7.6 min (-O1), lit 3.8 min (ptxas tests included; CI has no ptxas):
# about 12 minutes added to `make check`.
SANITIZE_BUILD_DIR ?= build-sanitize
SANITIZE_CC        ?= clang-22
SANITIZE_CXX       ?= clang++-22
SANITIZE_FLAGS     := -fsanitize=address,undefined -fno-sanitize=vptr \
                      -fno-omit-frame-pointer -gline-tables-only
SANITIZE_ENV       := ASAN_OPTIONS=allow_user_poisoning=0:abort_on_error=1 \
                      UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1:abort_on_error=1 \
                      ASAN_SYMBOLIZER_PATH=$(LLVM_PREFIX)/bin/llvm-symbolizer

$(SANITIZE_BUILD_DIR)/build.ninja:
	cmake -G Ninja -S . -B $(SANITIZE_BUILD_DIR) \
	  -DCMAKE_BUILD_TYPE=Release \
	  -DCMAKE_C_COMPILER=$(SANITIZE_CC) -DCMAKE_CXX_COMPILER=$(SANITIZE_CXX) \
	  "-DCMAKE_C_FLAGS=$(SANITIZE_FLAGS)" "-DCMAKE_CXX_FLAGS=$(SANITIZE_FLAGS)" \
	  -DCMAKE_C_FLAGS_RELEASE=-O1 -DCMAKE_CXX_FLAGS_RELEASE=-O1 \
	  -DFP8_ENABLE_ASSERTIONS=ON -DFP8_BUILD_FUZZER=ON -DFP8_BUILD_RUN=OFF \
	  -DMLIR_DIR=$(LLVM_PREFIX)/lib/cmake/mlir \
	  -DLLVM_EXTERNAL_LIT=$(LLVM_PREFIX)/bin/lit

check-sanitize: deps $(SANITIZE_BUILD_DIR)/build.ninja
	$(SANITIZE_ENV) ninja -C $(SANITIZE_BUILD_DIR) -j $(JOBS) check-fp8
	@echo "check-sanitize: passed"

# make check also runs the sanitizer build and the bounded fuzz runs, after
# the targets above (a rule of its own, so that others can extend `check`).
check: check-sanitize fuzz-ci fuzz-manifest-ci

# Fuzzing (docs/Fuzzing.md). fp8-fuzz feeds mutants of every test, example
# and benchmark input through parse, verify, the fp8 passes and kernel
# generation; its objects are the sanitizer build's (FP8_BUILD_FUZZER adds
# libFuzzer's coverage instrumentation there), so it costs one link. A
# crash, a sanitizer report or an input running over 10 s fails, and the
# input is left in FUZZ_DIR as crash-* or timeout-*. `make fuzz` builds it
# and writes the seeds; `make fuzz-ci` runs FUZZ_RUNS inputs from fixed
# seeds (1, 2, ...) on fresh corpora in each of FUZZ_CI_JOBS processes at
# once; `make fuzz-run` runs a campaign on FUZZ_DIR/corpus, FUZZ_JOBS
# processes of FUZZ_RUNS inputs each, e.g.
#   make fuzz-run FUZZ_RUNS=500000 FUZZ_JOBS=2
# Cost, measured on a 2-core machine: fuzz-ci's 2 x 20000 inputs took 12.3
# min on 2026-11-23 (29 inputs/s per process), and 2.9 min on 2026-11-25
# (116 inputs/s, after the fuzzer's kernel budget and -max_len), when all of
# `make check` from a clean clone took 27 min. 2 x 50000 inputs: 7.0 min
# (2026-11-25, commit 55df4ad; all of `make check` from a clean clone 21
# min), 29 min at the slower rate: inside CI's 90.
FUZZ_DIR   ?= $(SANITIZE_BUILD_DIR)/fuzz
FUZZ_RUNS  ?= 50000
FUZZ_JOBS  ?= 1
FUZZ_CI_JOBS ?= 2
FP8_FUZZ   := $(SANITIZE_BUILD_DIR)/bin/fp8-fuzz
FUZZ_FLAGS := -timeout=10 -rss_limit_mb=4096 -max_len=8192 -print_final_stats=1
FUZZ_ENV   := ASAN_OPTIONS=allow_user_poisoning=0 \
              UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
              ASAN_SYMBOLIZER_PATH=$(LLVM_PREFIX)/bin/llvm-symbolizer

fuzz: deps $(SANITIZE_BUILD_DIR)/build.ninja
	ninja -C $(SANITIZE_BUILD_DIR) -j $(JOBS) fp8-fuzz
	rm -rf $(FUZZ_DIR)/seeds
	$(PYTHON) tools/fp8-fuzz/make-corpus.py $(FUZZ_DIR)/seeds test examples bench

fuzz-ci: fuzz
	@rm -rf $(FUZZ_DIR)/ci && mkdir -p $(FUZZ_DIR)/ci
	@echo "fuzz-ci: $(FUZZ_CI_JOBS) x $(FUZZ_RUNS) inputs, logs in $(FUZZ_DIR)/ci"
	@pids=; for j in $$(seq 1 $(FUZZ_CI_JOBS)); do \
	  mkdir -p $(FUZZ_DIR)/ci/corpus-$$j; \
	  $(FUZZ_ENV) $(FP8_FUZZ) $(FUZZ_FLAGS) -seed=$$j -runs=$(FUZZ_RUNS) \
	    -artifact_prefix=$(FUZZ_DIR)/ $(FUZZ_DIR)/ci/corpus-$$j \
	    $(FUZZ_DIR)/seeds > $(FUZZ_DIR)/ci/job-$$j.log 2>&1 & \
	  pids="$$pids $$!"; \
	done; \
	failed=; j=0; for p in $$pids; do j=$$((j + 1)); \
	  wait $$p || failed="$$failed $$j"; done; \
	for j in $$(seq 1 $(FUZZ_CI_JOBS)); do \
	  grep -h '^Done\|^stat::number_of_executed_units' $(FUZZ_DIR)/ci/job-$$j.log; done; \
	for j in $$failed; do \
	  echo "fuzz-ci: job $$j failed ($(FUZZ_DIR)/ci/job-$$j.log):" >&2; \
	  grep -A60 -m1 'ERROR\|==ABORTING\|runtime error' $(FUZZ_DIR)/ci/job-$$j.log >&2; \
	done; \
	for j in $$failed; do \
	  echo "fuzz-ci: job $$j in short:" >&2; \
	  $(PYTHON) tools/fp8-fuzz/crash-summary.py $(FUZZ_DIR)/ci/job-$$j.log \
	    $(FUZZ_DIR) >&2; \
	done; \
	[ -z "$$failed" ]
	@echo "fuzz-ci: passed"

fuzz-run: fuzz
	mkdir -p $(FUZZ_DIR)/corpus
	cd $(FUZZ_DIR) && $(FUZZ_ENV) $(abspath $(FP8_FUZZ)) $(FUZZ_FLAGS) \
	  -runs=$(FUZZ_RUNS) -jobs=$(FUZZ_JOBS) -workers=$(FUZZ_JOBS) \
	  -artifact_prefix=$(abspath $(FUZZ_DIR))/ corpus seeds

# fp8rt-fuzz: libfp8rt's JSON, manifest and launch-plan readers (no CUDA,
# no LLVM: clang alone) on the manifests of runtime/test and
# tools/fp8-run/test, and on those fp8-opt emits for the GPU programs where
# it is built. FUZZ_MANIFEST_RUNS inputs from a fixed seed. Cost, measured
# on a 2-core machine beside another fuzzer: build 0.3 min, 200000 inputs
# 2.3 min (about 1500 inputs/s).
FUZZ_RT_BUILD_DIR  ?= build-fuzz-rt
FUZZ_RT_DIR        := $(FUZZ_RT_BUILD_DIR)/fuzz
FUZZ_MANIFEST_RUNS ?= 200000
FP8RT_FUZZ         := $(FUZZ_RT_BUILD_DIR)/fp8rt-fuzz

fuzz-manifest: deps
	cmake -G Ninja -S runtime/fuzz -B $(FUZZ_RT_BUILD_DIR) \
	  -DCMAKE_CXX_COMPILER=$(SANITIZE_CXX)
	ninja -C $(FUZZ_RT_BUILD_DIR)
	rm -rf $(FUZZ_RT_DIR)/seeds && mkdir -p $(FUZZ_RT_DIR)/seeds
	for f in $$(find runtime/test tools/fp8-run/test -name '*.json'); do \
	  cp $$f $(FUZZ_RT_DIR)/seeds/$$(echo $$f | tr / _); done
	@if [ -x $(FP8_OPT) ]; then set -e; \
	  for p in linear_fwd_bwd:blockwise mlp_block:blockwise; do \
	    name=$${p%%:*}; out=$(FUZZ_RT_DIR)/emit/$$name; \
	    $(FP8_OPT) test/Integration/GPU/programs/$$name.mlir \
	      "--fp8-pipeline=recipe=$${p#*:} chip=sm_90a" \
	      --fp8-emit=dir=$$out -o /dev/null; \
	    cp $$out/manifest.json $(FUZZ_RT_DIR)/seeds/emitted-$$name.json; \
	  done; \
	else echo "fuzz-manifest: no $(FP8_OPT); seeds without emitted manifests"; fi

fuzz-manifest-ci: fuzz-manifest
	rm -rf $(FUZZ_RT_DIR)/corpus && mkdir -p $(FUZZ_RT_DIR)/corpus
	$(FUZZ_ENV) $(FP8RT_FUZZ) $(FUZZ_FLAGS) -seed=1 \
	  -runs=$(FUZZ_MANIFEST_RUNS) -dict=runtime/fuzz/manifest.dict \
	  -artifact_prefix=$(FUZZ_RT_DIR)/ $(FUZZ_RT_DIR)/corpus $(FUZZ_RT_DIR)/seeds
	@echo "fuzz-manifest-ci: passed"
