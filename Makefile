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

check: check-lit check-embed

# --prefix, because the build directory may have been configured with
# another CMAKE_INSTALL_PREFIX (the package is relocatable).
install: build
	cmake --install $(BUILD_DIR) --prefix $(abspath $(INSTALL_DIR))

docs: configure
	ninja -C $(BUILD_DIR) mlir-doc
	@echo "generated references: $(BUILD_DIR)/docs/"

demo: build
	@sh examples/demo.sh $(FP8_OPT)

format:
	git ls-files '*.cpp' '*.h' | xargs clang-format -i

clean:
	rm -rf $(BUILD_DIR) $(INSTALL_DIR) examples/embed/build
