# sudoflow: `make run` solves every public set, `make test` is what CI runs.
SHELL := /bin/bash
CARGO ?= cargo
SETS := puzzles2_17_clue puzzles3_magictour_top1465 puzzles6_forum_hardest_1106 puzzles7_serg_benchmark
SUDOFLOW := target/release/sudoflow

# The tests build the library with `fuzzing` (sudoflow::checks, which
# tests/fuzz_corpus.rs replays the fuzz corpora through), every cargo test
# below with the same features so that it is built once.
TEST_FEATURES := --features fuzzing

# The Python package's venv (cached in target/) and the interpreter that makes it.
PY_VENV := target/py-venv
PYTHON ?= python3

.PHONY: all build datasets run test test-tools test-release-cli test-python test-python-fresh python-venv bench lint fuzz

all: build

# Release binary (fat LTO, codegen-units = 1, panic = unwind: a panic costs one row).
build:
	$(CARGO) build --release

# The four public sets into datasets/: copied from ../shared/datasets when it
# exists, else downloaded as tdoku's data.zip (see datasets/README.md).
datasets:
	@bash datasets/fetch.sh

# The main job on real data: solve every public set, one CSV each in
# target/run/, and a summary per set (counts per status, time, records/s).
run: build datasets
	@mkdir -p target/run
	@for set in $(SETS); do \
		printf '%-32s ' "$$set:"; \
		out=$$($(SUDOFLOW) solve datasets/$$set.txt -o target/run/$$set.csv 2>&1) \
			|| { echo "$$out"; exit 1; }; \
		echo "$${out#sudoflow: }"; \
	done
	@echo "CSV output in target/run/"

# The library without the command line (no clap, no indicatif: what the
# Python package and other library users build), then every Rust test (unit,
# property, integration: the integration tests need the sets; the CLI tests,
# tests/cli_*.rs, run the `ci` build of the binary, which cargo hands them as
# CARGO_BIN_EXE_sudoflow), then the Python package's tests against the same
# binary. The `ci` profile is release without LTO, with debug assertions and
# overflow checks on, so the solver's internal checks run under every test.
# The release build (fat LTO, one codegen unit) is left out of the suite: on
# the 2-vCPU CI machine it took 338 s of a 1,278 s run (measured from a clean
# clone, 2026-11-26), while the CLI tests take 190 s against the ci build and
# 140 s against release; `make test-release-cli` runs them against release.
# The solver's set checks (pinned guess totals) and property tests run a
# second time with SUDOFLOW_SIMD=sse2, on the baseline path the AVX2 and
# AVX-512 paths are chosen over at run time (src/solver/simd.rs; the test
# binaries are already built, so only their run time is added), and
# tests/solver_simd.rs holds every path this CPU has to the baseline.
# The Python venv and the test tools (chromium, poppler-utils: test-tools)
# are made in the background meanwhile (pip and apt-get mostly wait on
# downloads while cargo compiles); their logs are target/py-venv.log and
# target/test-tools.log.
CI_BIN := target/ci/sudoflow

test: datasets
	@mkdir -p target && rm -f target/py-venv.rc target/test-tools.rc
	@( $(MAKE) --no-print-directory python-venv > target/py-venv.log 2>&1; echo $$? > target/py-venv.rc ) &
	@( $(MAKE) --no-print-directory test-tools > target/test-tools.log 2>&1; echo $$? > target/test-tools.rc ) &
	$(CARGO) check --lib --no-default-features
	$(CARGO) test --profile ci $(TEST_FEATURES) --no-run
	@while [ ! -f target/test-tools.rc ]; do sleep 1; done; \
		if [ "$$(cat target/test-tools.rc)" != 0 ]; then cat target/test-tools.log; echo "test-tools failed"; exit 1; fi
	$(CARGO) test --profile ci $(TEST_FEATURES) --lib --bins --examples --tests
	$(CARGO) test --profile ci $(TEST_FEATURES) --doc
	SUDOFLOW_SIMD=sse2 $(CARGO) test --profile ci $(TEST_FEATURES) --test solver_sets --test solver_props --test matching_props
	@while [ ! -f target/py-venv.rc ]; do sleep 1; done; \
		if [ "$$(cat target/py-venv.rc)" != 0 ]; then cat target/py-venv.log; echo "python venv failed"; exit 1; fi
	@$(MAKE) --no-print-directory test-python PY_TEST_BIN=$(CI_BIN)

# The programs the picture and book tests run (tests/cli_pictures.rs,
# tests/cli_books.rs): Debian's headless Chromium (the HTML page's keys and
# screenshot) and poppler-utils (pdftotext, pdftoppm, pdfinfo: the PDF's
# text layer and pages); and strace, whose fault injection
# tests/cli_faults.rs uses (failed fsyncs, reads and locks). Installed with
# apt-get once, when one is missing (as root, or through sudo).
TEST_TOOLS := chromium pdftotext pdftoppm pdfinfo strace
test-tools:
	@missing=; for t in $(TEST_TOOLS); do command -v $$t >/dev/null 2>&1 || missing="$$missing $$t"; done; \
	if [ -n "$$missing" ]; then \
		echo "test-tools: installing chromium, poppler-utils and strace (missing:$$missing)"; \
		sudo=; [ "$$(id -u)" = 0 ] || sudo=sudo; \
		$$sudo apt-get update -qq && \
		DEBIAN_FRONTEND=noninteractive $$sudo apt-get install -y -qq --no-install-recommends chromium poppler-utils strace >/dev/null; \
	fi

# A venv in target/ with python/requirements-test.txt from PyPI (maturin,
# pytest, pyarrow, polars, pandas, pyspark, dask), made once and kept until
# the requirements change.
python-venv: $(PY_VENV)/.installed

$(PY_VENV)/.installed: python/requirements-test.txt
	test -x $(PY_VENV)/bin/python || $(PYTHON) -m venv $(PY_VENV)
	$(PY_VENV)/bin/python -m pip install -q --disable-pip-version-check -r python/requirements-test.txt
	touch $@

# Builds the extension into the venv (maturin develop: cargo's incremental
# build in target/, profile `ci`, whose dependencies the Rust tests have
# just built: a second optimised build of them in profile `python` cost CI
# minutes; `pip install ./python` and the Python benchmarks use `python`)
# and runs python/tests against the binary PY_TEST_BIN (the release binary,
# built first; `make test` passes the ci build it has just tested), including
# the Spark (local[2]) and Dask (LocalCluster) runs.
PY_TEST_BIN ?= $(SUDOFLOW)
test-python: datasets python-venv $(if $(filter $(SUDOFLOW),$(PY_TEST_BIN)),build)
	cd python && VIRTUAL_ENV=$(CURDIR)/$(PY_VENV) PYO3_PYTHON=$(CURDIR)/$(PY_VENV)/bin/python \
		$(CURDIR)/$(PY_VENV)/bin/maturin develop -q --profile ci
	@set -o pipefail; SUDOFLOW_BIN=$(CURDIR)/$(PY_TEST_BIN) SPARK_LOCAL_IP=127.0.0.1 \
		$(PY_VENV)/bin/python -m pytest -q -rs -m "not packaging" python/tests | tee target/pytest.log
	@if tail -n 1 target/pytest.log | grep -q skipped; then \
		echo "test-python: pytest skipped tests (above): CI runs every test, so a missing module is a failure"; exit 1; \
	fi

# The package as a user installs it: a fresh venv with only pip, `pip install
# -v ./python` (a cold build with the package's own profile, timed), then every
# example of the README's Python sections with that venv, the packed venv on
# spark-submit included (python/tests/fresh_venv.sh; PyPI needed).
test-python-fresh: build datasets
	bash python/tests/fresh_venv.sh

# `make test-release-cli`, not part of `make test`: the CLI tests
# (tests/cli_*.rs, built under the ci profile) run against the release
# binary that users get and the benchmarks time (fat LTO, its own
# panic strategy): assert_cmd takes the binary from CARGO_BIN_EXE_sudoflow,
# which cargo would set to the ci build, so the test executables run directly
# (tests in parallel, as cargo test runs them: bench's external-program tests
# stalled so once, before an external run stopped trusting stdout's end alone,
# 0f3aebc; 15 parallel runs of them since took 4-8 s each).
test-release-cli: build
	@tests=$$($(CARGO) test --profile ci $(TEST_FEATURES) --no-run --message-format=json --test 'cli_*' 2>/dev/null \
			| python3 -c 'import json, sys; [print(a["executable"]) for a in map(json.loads, sys.stdin) if a.get("profile", {}).get("test") and a.get("executable")]'); \
		n=$$(echo "$$tests" | grep -c .); \
		want=$$(ls tests/cli_*.rs | wc -l); \
		if [ "$$n" -ne "$$want" ]; then \
			echo "test-release-cli: cargo listed $$n test executables for the $$want tests/cli_*.rs files"; exit 1; \
		fi; \
		for t in $$tests; do \
			echo "release binary: $$(basename $$t)"; \
			CARGO_BIN_EXE_sudoflow=$(CURDIR)/$(SUDOFLOW) $$t -q || exit 1; \
		done

# Criterion benchmarks, then whole-process CPU time against the sudoku crate.
bench: datasets
	$(CARGO) bench
	bash benches/solve_whole.sh

lint:
	$(CARGO) fmt --check
	$(CARGO) clippy --all-targets $(TEST_FEATURES) -- -D warnings
	$(CARGO) clippy --lib --no-default-features -- -D warnings
	RUSTDOCFLAGS="-D warnings" $(CARGO) doc --no-deps

# Fuzz each target for FUZZ_SECONDS (default 900) in turn, then minimise its
# corpus (fuzz/corpus/TARGET; commit it). Needs cargo-fuzz (`cargo install
# cargo-fuzz`); the stable toolchain takes its sanitizer flags with
# RUSTC_BOOTSTRAP=1. -a: the solver's debug assertions on. A crash input lands
# in fuzz/artifacts/TARGET: fix the bug, then keep the input in
# fuzz/regressions/TARGET. CI (`make test`) replays both directories through
# the same checks (tests/fuzz_corpus.rs) without cargo-fuzz.
FUZZ_TARGETS ?= reader grid_parse solver count
FUZZ_SECONDS ?= 900
fuzz:
	cd fuzz && for t in $(FUZZ_TARGETS); do \
		RUSTC_BOOTSTRAP=1 nice -n 15 $(CARGO) fuzz run -O -a $$t -- \
			-max_total_time=$(FUZZ_SECONDS) -timeout=10 -rss_limit_mb=2048 || exit 1; \
		RUSTC_BOOTSTRAP=1 nice -n 15 $(CARGO) fuzz cmin -O -a $$t || exit 1; \
	done
