# A thin wrapper over the CMake presets (CMakePresets.json). `make run` and `make test` first
# install whatever Debian packages are missing (scripts/install-deps.sh): `make run` only what
# building and running need, `make test` also what the tests and benchmarks need.
JOBS ?= $(shell nproc)

.PHONY: all deps deps-run build build-program run test test-default test-asan bench install deb \
	fuzz format clean

all: build

deps:
	@bash scripts/install-deps.sh test

deps-run:
	@bash scripts/install-deps.sh run

# build PRESET=default|debug|asan: everything the installed packages allow (the tests and
# benchmarks once `make test` or `make deps` installed theirs).
PRESET ?= default
build: deps-run
	@cmake --preset $(PRESET) > /dev/null
	@cmake --build --preset $(PRESET) -j $(JOBS)

# Only the program, for `make run`.
build-program: deps-run
	@cmake --preset $(PRESET) > /dev/null
	@cmake --build --preset $(PRESET) -j $(JOBS) --target memplace

# The main job on embedded defaults: the quick suite table (docs/results/suite-quick.yaml: every
# agent, EGRL against the baselines, on six instances of the benchmark suite's test split — today's
# models on four chips, under the streaming dynamics of cost model v1 — 3 seeds of 5000
# evaluations; about half an hour on 2 cores), after the suite's test instances and what there is to
# win on each. The full suite table: memplace table --suite v1 (docs/table.md#suite-tables). A
# rerun reads the finished runs from runs/quick-suite and only prints.
run: build-program
	@build/$(PRESET)/apps/memplace references --suite v1 --split test
	@echo
	@build/$(PRESET)/apps/memplace table docs/results/suite-quick.yaml --out runs/quick-suite \
		--if-config-differs move-aside

# The whole test suite, twice: optimised, then under AddressSanitizer + UndefinedBehaviorSanitizer.
test: test-default test-asan

test-default: deps
	@cmake --preset default -DMEMPLACE_BUILD_TESTS=ON > /dev/null
	@cmake --build --preset default -j $(JOBS)
	@ctest --preset default -j $(JOBS)

test-asan: deps
	@cmake --preset asan -DMEMPLACE_BUILD_TESTS=ON > /dev/null
	@cmake --build --preset asan -j $(JOBS)
	@ctest --preset asan -j $(JOBS)

# The program, the Python package and the table configs into PREFIX (README, "Install"):
# PREFIX/bin/memplace, PREFIX/lib/python3.X/dist-packages/memplace, PREFIX/share/memplace.
PREFIX ?= /usr/local
install: build
	@cmake --install build/$(PRESET) --prefix $(PREFIX)

# The same as a Debian package, build/default/memplace_<version>_amd64.deb (install it with
# `apt install ./build/default/memplace_*.deb`).
deb: build
	@cd build/$(PRESET) && cpack -G DEB

# Fuzzes every loader with libFuzzer for FUZZ_SECONDS each (docs/reliability.md): a clang build
# in build/fuzz (ASan + UBSan, no tests); findings in build/fuzz/findings/. FUZZ_TARGETS picks some.
FUZZ_SECONDS ?= 60
FUZZ_TARGETS ?=
fuzz:
	@bash scripts/install-deps.sh fuzz
	@cmake -S . -B build/fuzz -G Ninja -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_BUILD_TYPE=RelWithDebInfo \
		-DMEMPLACE_FUZZ=ON -DMEMPLACE_BUILD_TESTS=OFF -DMEMPLACE_BUILD_BENCH=OFF \
		-DMEMPLACE_BUILD_PYTHON=OFF > /dev/null
	@cmake --build build/fuzz -j $(JOBS) --target memplace_fuzz
	@bash scripts/fuzz.sh build/fuzz $(FUZZ_SECONDS) $(FUZZ_TARGETS)

# Micro-benchmarks (docs/performance.md says how the published figures were measured).
bench: deps build
	@build/$(PRESET)/bench/memplace_bench
	@build/$(PRESET)/bench/memplace_bench_envs
	@build/$(PRESET)/bench/memplace_bench_gnn
	@build/$(PRESET)/bench/memplace_bench_agents
	@build/$(PRESET)/bench/memplace_bench_optimum
	@PYTHONPATH=build/$(PRESET)/python /usr/bin/python3 bench/python_env_steps.py

format:
	@bash scripts/install-deps.sh format
	@clang-format -i $$(git ls-files '*.cpp' '*.hpp')

clean:
	@rm -rf build
