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

# The main job on embedded defaults: the quick suite table (docs/results/suite-quick.yaml: every
# agent, EGRL against the baselines, on six instances of the benchmark suite's test split — today's
# models on four chips, under the streaming dynamics of cost model v1 — 3 seeds of 5000
# evaluations; about 8 minutes on 2 cores), after the suite's test instances and what there is to
# win on each. The full suite table: memplace table --suite v1 (docs/table.md#suite-tables). A
# rerun reads the finished runs from runs/quick-suite and only prints.
run: build
	@build/$(PRESET)/apps/memplace references --suite v1 --split test
	@echo
	@build/$(PRESET)/apps/memplace table docs/results/suite-quick.yaml --out runs/quick-suite \
		--if-config-differs move-aside

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
