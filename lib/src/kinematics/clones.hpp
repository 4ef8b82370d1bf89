#pragma once
// Internal: the per-pose loops that gain from AVX are compiled twice, for processors with
// AVX and for the x86-64 baseline, and the dynamic loader picks one per process (GCC's
// target_clones, an ifunc). AVX gives three-operand instructions and 4-lane vectors: a
// frame column in one register. Neither clone uses FMA and the source is the same, so both
// round alike and give the same bits. Other compilers and targets build the one version, and
// so does -DRMODEL_KINEMATICS_CLONES=OFF: the sanitizer pass of scripts/test.sh builds the
// baseline only, so that the suite also runs the code an AVX machine's loader never picks.

#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && defined(__ELF__) && \
    !defined(RMODEL_NO_KINEMATICS_CLONES)
#define RMODEL_KINEMATICS_CLONES __attribute__((target_clones("avx", "default")))
#else
#define RMODEL_KINEMATICS_CLONES
#endif
