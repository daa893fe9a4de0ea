# A thin wrapper over the CMake presets (CMakePresets.json). `make run` and `make test` first
# install whatever Debian packages are missing (scripts/install-deps.sh).
JOBS ?= $(shell nproc)

.PHONY: all deps build run test test-default test-asan bench format clean

all: build

deps:
	@bash scripts/install-deps.sh

# build PRESET=default|debug|asan
PRESET ?= default
build: deps
	@cmake --preset $(PRESET) > /dev/null
	@cmake --build --preset $(PRESET) -j $(JOBS)

# The main job on embedded defaults: a short version of the EGRL baseline table (every agent,
# EGRL against the baselines, on BERT-base under the streaming dynamics of cost model v1 — the
# paper workload with the most to win — 3 seeds of 5000 evaluations; about 2 minutes on 2 cores),
# after the reference mappings of the paper's workloads (v0) and of BERT-base under v1. The full table: memplace table
# (docs/table.md). A rerun reads the finished runs from runs/quick-table and only prints.
run: build
	@build/$(PRESET)/apps/memplace references
	@echo
	@build/$(PRESET)/apps/memplace references bert-base --dynamics streaming
	@echo
	@build/$(PRESET)/apps/memplace table --workloads bert-base --seeds 3 --budget 5000 \
		--out runs/quick-table

# The whole test suite, twice: optimised, then under AddressSanitizer + UndefinedBehaviorSanitizer.
test: test-default test-asan

test-default: deps
	@cmake --preset default > /dev/null
	@cmake --build --preset default -j $(JOBS)
	@ctest --preset default -j $(JOBS)

test-asan: deps
	@cmake --preset asan > /dev/null
	@cmake --build --preset asan -j $(JOBS)
	@ctest --preset asan -j $(JOBS)

# Micro-benchmarks (docs/performance.md says how the published figures were measured).
bench: build
	@build/$(PRESET)/bench/memplace_bench
	@build/$(PRESET)/bench/memplace_bench_envs
	@build/$(PRESET)/bench/memplace_bench_gnn
	@build/$(PRESET)/bench/memplace_bench_agents
	@build/$(PRESET)/bench/memplace_bench_optimum
	@PYTHONPATH=build/$(PRESET)/python /usr/bin/python3 bench/python_env_steps.py

format:
	@clang-format -i $$(git ls-files '*.cpp' '*.hpp')

clean:
	@rm -rf build
