// SPDX-License-Identifier: MIT
// persistent.cu - a persistent-threads kernel: a fixed grid of CTAs that stay resident and pull
// work items from a global queue until it is empty.
//
// The queue is a counter (*head) in global memory. Each CTA loops: thread 0 takes the next item
// with atomicAdd(head, 1) and broadcasts it through shared memory; when the item is past the end
// the whole CTA leaves, otherwise every thread handles one element of the item's PT_CHUNK-element
// slice and the CTA meets at a barrier before taking the next item. The per-element work is the
// Collatz (3n + 1) trajectory length of the input, capped at PT_MAX_STEPS: a data-dependent loop,
// so items (and the lanes of a warp) take very different times, and the queue balances them.
// Thread 0 also records, per item, which CTA took it (owner) and bumps taken[item], so the host
// can check that every item was processed exactly once and see how the work spread.
//
// No CTA finishes before the queue is empty, so draining a preemption victim means waiting for
// the whole kernel: the worst case for drain-based preemption. The queue makes the kernel NOT
// idempotent: a CTA re-run from its start would take new items, and the items its first run took
// but did not finish would be lost.

#define PT_CHUNK 256
#define PT_MAX_STEPS 1000

extern "C" __global__ void pt_worker(unsigned *head, unsigned nitems,
                                     const unsigned *__restrict__ in, unsigned *__restrict__ out,
                                     unsigned *__restrict__ owner, unsigned *__restrict__ taken)
{
    __shared__ unsigned item;
    for (;;) {
        if (threadIdx.x == 0) {
            unsigned it = atomicAdd(head, 1u);
            item = it;
            if (it < nitems) {
                owner[it] = blockIdx.x;
                taken[it] += 1u;
            }
        }
        __syncthreads();
        unsigned it = item;
        if (it >= nitems)
            break;
        unsigned idx = it * PT_CHUNK + threadIdx.x;
        unsigned long long v = in[idx];
        unsigned steps = 0;
        while (v != 1ull && steps < PT_MAX_STEPS) {
            v = (v & 1ull) ? 3ull * v + 1ull : v >> 1;
            steps++;
        }
        out[idx] = steps;
        __syncthreads(); // everyone has read `item` before thread 0 overwrites it
    }
}
