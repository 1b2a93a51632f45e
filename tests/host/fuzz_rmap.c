/*
 * libFuzzer target: the rmap model test (tests/host/test_rmap_model.c)
 * driven by the fuzzer's bytes instead of its PRNG.  Byte 0 picks the
 * scenario (two mms, fork/exit, many mms); then every two bytes are one
 * random draw — which operation, which folio, mm, range — until they run
 * out.  Every model check (mapcounts, slots, shared bit, AnonPages, the
 * deferred split queue, sanity warnings) aborts on a mismatch: a finding.
 * Built by `make fuzz-rmap`; run by make test for a bounded time on the
 * corpus in tests/host/corpus/rmap/.
 */
#define RMAP_MODEL_FUZZ 1
#include "tests/host/test_rmap_model.c"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 3)
		return 0;
	fuzz_data = data + 1;
	fuzz_len = size - 1;
	seed = 0;
	run_scenario(&scenarios[data[0] % ARRAY_SIZE(scenarios)], ~0UL);
	fuzz_data = NULL;
	return 0;
}
