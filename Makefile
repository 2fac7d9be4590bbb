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

FP8_OPT := $(BUILD_DIR)/bin/fp8-opt

.PHONY: all deps configure build check check-format check-lit check-run \
        check-embed check-gpu gpu-programs run-gpu-programs \
        check-gpu-programs gpu-python run-gpu-python check-python check-gpu-multi \
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
# directives in input.mlir and fp8-embed-c.c. Outputs go to files first so
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
# with build/bin/fp8-opt, libfp8rt's signatures (where check-run built it).
check-python: build
	FP8_OPT=$(abspath $(FP8_OPT)) \
	  $(if $(wildcard $(RUN_BUILD_DIR)/lib/libfp8rt.so),FP8RT_LIBRARY=$(abspath $(RUN_BUILD_DIR)/lib/libfp8rt.so)) \
	  $(PYTHON) -m unittest discover -s python/tests
	@echo "check-python: passed"

check: check-format check-lit check-run check-python check-embed

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
GEMM_MLIR      := test/Integration/GPU/gemm.mlir
CHECK_PROGRAM  := $(PYTHON) test/Integration/GPU/check_program.py
# Whole programs, NAME:RECIPE: test/Integration/GPU/programs/NAME.mlir (whose
# function is NAME) compiled with the recipe preset into
# GPU_KERNEL_DIR/programs/NAME-RECIPE, run as one launch plan (fp8-run
# --function) and checked by check_program.py.
# RECIPE "none": a program written at the fp8 level, compiled without
# --fp8-quantize-matmuls and checked without the end-to-end graph.
GPU_PROGRAMS   ?= linear_fwd_bwd:blockwise linear_fwd_bwd:tensorwise \
                  linear_fwd_bwd:rowwise linear_fwd_bwd:mxfp8 \
                  quantized_fprop:none \
                  mlp_block:blockwise mlp_block:tensorwise
# Programs whose run with special values (--specials: inf, huge, subnormal
# inputs) is a known failure, skipped with a note: docs/KnownIssues.md.
GPU_PROGRAMS_KNOWN_SPECIALS ?= linear_fwd_bwd:rowwise linear_fwd_bwd:mxfp8 \
                               mlp_block:blockwise
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
	@# The programs' launch plans, emitted here too.
	@$(MAKE) --no-print-directory gpu-programs
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
	$(FP8_RUN) $(GPU_KERNEL_DIR)/manifest.json --iters 0 --seed 1 --specials \
	  --dump $(GPU_DUMP_DIR)/specials
	$(CHECK_QUANTIZE) $(GPU_DUMP_DIR)/specials
	@if [ -f $(GEMM_MLIR) ]; then \
	  set -x; \
	  $(FP8_RUN) $(GPU_KERNEL_DIR)/gemm/manifest.json --iters 0 --seed 0 \
	    --dump $(GPU_DUMP_DIR)/gemm && \
	  $(CHECK_GEMM) --self-test && \
	  $(CHECK_GEMM) $(GPU_DUMP_DIR)/gemm; \
	fi
	@$(MAKE) --no-print-directory run-gpu-programs
	@$(MAKE) --no-print-directory gpu-python run-gpu-python
	@echo "check-gpu: passed"

# The programs alone: emits them where fp8-opt exists (gpu-programs), builds
# fp8-run, and runs and checks each (run-gpu-programs), seeded and with
# special values.
gpu-programs:
	@for p in $(GPU_PROGRAMS); do \
	  name=$${p%%:*}; recipe=$${p#*:}; dir=$(GPU_KERNEL_DIR)/programs/$$name-$$recipe; \
	  if [ $$recipe = none ]; then set -- --fp8-legalize --canonicalize; \
	  else set -- "--fp8-pipeline=recipe=$$recipe chip=$(GPU_CHIP)"; fi; \
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

# The Python package on the GPU (test/Integration/GPU/check_nn.py):
# gpu-python compiles the layers its tests use into PY_CACHE where fp8-opt
# exists (carry PY_CACHE to the GPU machine otherwise); run-gpu-python runs
# them through libfp8rt (build-run/lib/libfp8rt.so).
PY_CACHE ?= $(BUILD_DIR)/fp8-cache
CHECK_NN := $(PYTHON) test/Integration/GPU/check_nn.py

gpu-python:
	@if [ -x $(FP8_OPT) ]; then \
	  FP8_OPT=$(abspath $(FP8_OPT)) FP8_MLIR_CACHE=$(abspath $(PY_CACHE)) \
	    $(CHECK_NN) --aot > /dev/null; \
	else \
	  echo "check-gpu: no $(FP8_OPT); check_nn.py uses the cache $(PY_CACHE)"; \
	fi

run-gpu-python:
	FP8_MLIR_CACHE=$(abspath $(PY_CACHE)) $(CHECK_NN)

# Two or more GPUs: fp8_mlir.nn under FSDP2 (check_fsdp.py) against one GPU.
CHECK_FSDP := $(PYTHON) test/Integration/GPU/check_fsdp.py
NPROC      ?= 2

check-gpu-multi:
	@if [ -x $(FP8_OPT) ]; then \
	  FP8_OPT=$(abspath $(FP8_OPT)) FP8_MLIR_CACHE=$(abspath $(PY_CACHE)) \
	    $(CHECK_FSDP) --aot --nproc $(NPROC); \
	fi
	FP8_MLIR_CACHE=$(abspath $(PY_CACHE)) $(CHECK_FSDP) --nproc $(NPROC)

check-gpu-programs: gpu-programs
	cmake -G Ninja -S tools/fp8-run -B $(RUN_BUILD_DIR) -DCMAKE_BUILD_TYPE=Release
	ninja -C $(RUN_BUILD_DIR)
	@$(MAKE) --no-print-directory run-gpu-programs
	@echo "check-gpu-programs: passed"

# --prefix, because the build directory may have been configured with
# another CMAKE_INSTALL_PREFIX (the package is relocatable).
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
