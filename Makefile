# The two commands README.md promises: `make run` and `make test`.
# Both install what is missing first (scripts/install-deps is silent when all is there).
JOBS ?= $(shell nproc)
# Extra configure flags, e.g. CMAKE_ARGS=-DCMAKE_CXX_COMPILER=clang++-14 (tests/fuzz/README.md).
CMAKE_ARGS ?=
# Unity builds (CMakeLists.txt): `make test UNITY=ON`, as CI does (.ci/run). Off unless asked,
# every time: a tree once configured by CI goes back to per-file objects, which ccache shares
# across the team's worktrees.
UNITY ?= OFF
RELEASE := build/release
ASAN := build/asan
FUZZ := build/fuzz

.PHONY: run test test-asan test-fuzz deps release asan fuzz bench clean format

deps:
	@scripts/install-deps

release: deps
	@cmake --preset release -DNAQALA_UNITY_BUILD=$(UNITY) $(CMAKE_ARGS) >/dev/null
	@cmake --build $(RELEASE) -j $(JOBS)

# The sanitizer tree: clang-14 with ASan and UBSan, which builds the libFuzzer targets too
# (tests/fuzz/README.md); `scripts/install-deps fuzz` adds clang-14 and libFuzzer first.
asan:
	@scripts/install-deps fuzz
	@cmake --preset asan -DNAQALA_UNITY_BUILD=$(UNITY) $(CMAKE_ARGS) >/dev/null
	@cmake --build $(ASAN) -j $(JOBS)

# libFuzzer targets with clang-14, ASan and UBSan (tests/fuzz/README.md), alone in build/fuzz
# at -O2 for long runs; test-fuzz runs each for 30 s from its seed corpus, and every fixed crash
# once. The sanitizer tree (make asan) builds them too, and test-asan runs them with its tests.
fuzz:
	@scripts/install-deps fuzz
	@cmake --preset fuzz -DNAQALA_UNITY_BUILD=$(UNITY) $(CMAKE_ARGS) >/dev/null
	@cmake --build $(FUZZ) -j $(JOBS) --target naqala_fuzzers

test-fuzz: fuzz
	@cd $(FUZZ) && ctest --output-on-failure -j $(JOBS) -L fuzz $(CTEST_ARGS)

# The browser app on http://localhost:8080 (naqala.db keeps players and games across restarts).
run: release
	@$(RELEASE)/naqala serve --port 8080 --db naqala.db

test: release
	@cd $(RELEASE) && ctest --output-on-failure -j $(JOBS) $(CTEST_ARGS)

# The sanitizer tree's tests, then the fuzz targets (label fuzz) all at once: each runs its 30 s
# of wall time beside the others, so the 9 cost 30 s, not 9 x 30 / JOBS (tests/fuzz/README.md).
# `heavy`: fits and long self-play, left to the release tree (tests/CMakeLists.txt).
FUZZ_JOBS ?= 16
test-asan: asan
	@cd $(ASAN) && ctest --output-on-failure -j $(JOBS) -LE 'slow|gnubg|e2e|mpi|heavy|fuzz' $(CTEST_ARGS)
	@cd $(ASAN) && ctest --output-on-failure -j $(FUZZ_JOBS) -L fuzz $(CTEST_ARGS)

bench: release
	@$(RELEASE)/bench/naqala_bench

format:
	@find src tests bench -name '*.h' -o -name '*.cpp' | xargs clang-format -i

clean:
	rm -rf build
