#!/bin/bash -eu
# Builds reptest's native Go fuzz targets for OSS-Fuzz or ClusterFuzzLite.
# It runs in the base-builder-go image, with the repository at
# $SRC/reptest; see the "Fuzzing" section of fuzz/README.md.

cd "$SRC/reptest"

# The seed corpora first, with the ordinary toolchain: the libFuzzer build
# ignores f.Add, so the seeds go to $OUT as <Target>_seed_corpus.zip, in
# the byte encoding the libFuzzer wrapper decodes.
REPTEST_OSSFUZZ_SEEDS="$OUT" go test ./fuzz -run '^TestWriteOSSFuzzSeeds$' -count=1

# compile_native_go_fuzzer rewrites the package to use go-118-fuzz-build's
# testing package, which the module must be able to resolve.
go install github.com/AdamKorcz/go-118-fuzz-build@latest
go get github.com/AdamKorcz/go-118-fuzz-build/testing

# Older go-118-fuzz-build versions look for fuzz targets in non-test files
# only (go-118-fuzz-build issue #2): give the package's test files another
# suffix. The files that must stay out of the libFuzzer build carry the
# build constraint !gofuzz_libfuzzer, a tag go-118-fuzz-build sets.
for f in fuzz/*_test.go; do
	mv "$f" "${f%_test.go}_libfuzzer.go"
done

for target in FuzzParse FuzzMatch FuzzInvariants FuzzDifferential; do
	compile_native_go_fuzzer github.com/reptest/reptest/fuzz "$target" "$target"
done
