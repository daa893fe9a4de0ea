# A thin wrapper over CMake presets. `make run` and `make test` install what is missing first.
PRESET ?= default
BUILD := build/$(PRESET)
JOBS ?= $(shell nproc)

.PHONY: all deps configure build run test asan bench format clean

all: build

deps:
	@bash scripts/install-deps.sh

configure: deps
	@cmake --preset $(PRESET) > /dev/null

build: configure
	@cmake --build --preset $(PRESET) -j $(JOBS)

# The main job on embedded defaults: the reference mappings of the three EGRL paper workloads.
run: build
	@$(BUILD)/apps/memplace references

# The whole test suite (unit, property, golden and CLI tests).
test: build
	@ctest --preset $(PRESET) -j $(JOBS)

# The same suite under AddressSanitizer + UndefinedBehaviorSanitizer.
asan:
	@$(MAKE) --no-print-directory test PRESET=asan

bench: build
	@$(BUILD)/bench/memplace_bench --benchmark_min_time=0.5

format:
	@clang-format -i $$(git ls-files '*.cpp' '*.hpp')

clean:
	@rm -rf build
