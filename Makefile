# fp8-mlir: the two commands a user needs are `make demo` and `make check`.
# Both install what is missing (Debian 12, as root), configure and build.

LLVM_PREFIX ?= /usr/lib/llvm-22
BUILD_DIR   ?= build
INSTALL_DIR ?= $(CURDIR)/install
BUILD_TYPE  ?= Release
JOBS        ?= $(shell nproc)

# Debian packages the build and the tests need.
DEB_PACKAGES := llvm-22-dev llvm-22-tools libmlir-22-dev mlir-22-tools \
                cmake ninja-build g++ python3

FP8_OPT := $(BUILD_DIR)/bin/fp8-opt

.PHONY: all deps configure build check check-lit check-embed install demo docs \
        format clean

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

# Installs the package and builds examples/embed against it.
check-embed: install
	rm -rf examples/embed/build
	cmake -G Ninja -S examples/embed -B examples/embed/build \
	  -DFP8MLIR_DIR=$(INSTALL_DIR)/lib/cmake/fp8mlir \
	  -DMLIR_DIR=$(LLVM_PREFIX)/lib/cmake/mlir
	ninja -C examples/embed/build
	examples/embed/build/fp8-embed examples/embed/input.mlir

check: check-lit check-embed

install: build
	cmake --install $(BUILD_DIR)

docs: configure
	ninja -C $(BUILD_DIR) mlir-doc
	@echo "generated references: $(BUILD_DIR)/docs/"

demo: build
	@sh examples/demo.sh $(FP8_OPT)

format:
	git ls-files '*.cpp' '*.h' | xargs clang-format -i

clean:
	rm -rf $(BUILD_DIR) $(INSTALL_DIR) examples/embed/build
