// SPDX-License-Identifier: MIT
// chase.cu - pointer chase: one thread follows a chain of 64-bit device pointers.
//
// The classic load-to-use latency microbenchmark (Wong et al., "Demystifying GPU
// Microarchitecture through Microbenchmarking", ISPASS 2010; the "global memory takes 400-800
// cycles [Won10]" of Lin's thesis ch.3): each node's first 8 bytes hold the address of the next
// node, so every load's address is the previous load's value and the loads cannot overlap. The
// cycles of a launch grow by exactly one load-to-use latency per hop; the difference of two hop
// counts over the same chain removes the launch overhead and the cold first pass
// (experiments/memory-baselines.sh). Which level serves the loads (L1, L2 or DRAM) is decided
// by the host driver's layout alone (footprint and stride, chase.c): the kernel is the same in
// every variant.
//
// The pointers loaded from memory are generic (nvcc cannot know they point into global memory),
// so the chain's loads are `ld.u64` with the default cache operator (.ca), as in real linked-list
// code; the model resolves the generic address per lane to the global space.
//
// CHASE_FOOTPRINT and CHASE_STRIDE (ptx.flags) are layout knobs read back by the driver from the
// variant flags: the device code does not use them, so every variant's PTX is the same code.
//
// Idempotent: yes. The kernel only reads the chain and writes its one result word.

extern "C" __global__ void chase(const unsigned long long *start, unsigned long long *result,
                                 int hops)
{
    if (blockIdx.x != 0 || threadIdx.x != 0)
        return;
    const unsigned long long *p = start;
    for (int i = 0; i < hops; i++)
        p = (const unsigned long long *)*p;
    *result = (unsigned long long)p;
}
