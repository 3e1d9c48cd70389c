// SPDX-License-Identifier: MIT
// nqueens.cu - count the solutions of the N-queens problem, one board prefix per thread.
//
// The host enumerates every legal placement of the first rows (a prefix) and gives each as three
// bit masks over the n columns: columns taken, and the squares of the next row attacked along the
// two diagonal directions. A thread completes its prefix by depth-first backtracking over the
// remaining rows with the classic bit tricks: free = ~(cols | left | right) & full; take the
// lowest free bit; the diagonal masks shift by one per row. Its explicit stack (the four masks of
// each pushed row) lives in shared memory, laid out [level][word][thread] so that a warp's
// accesses of one level fall in distinct banks; its size is rows * 4 words per thread and comes
// from the dynamic shared memory size, so scratchpad per CTA is a parameter of the launch (as in
// the scratchpad-bound NQU of the GPGPU-Sim suite). Backtracking depth varies per thread: the
// warps diverge heavily. Each thread writes the count of its own prefix: idempotent.

extern "C" __global__ void nq_solve(const unsigned *__restrict__ prefix, int nprefix, int n,
                                    int rows, unsigned *__restrict__ count)
{
    extern __shared__ unsigned nq_stack[];
    const int nt = blockDim.x, tid = threadIdx.x;
    int p = blockIdx.x * nt + tid;
    if (p >= nprefix)
        return;
    const unsigned full = (1u << n) - 1u;
    unsigned cols = prefix[3 * p], left = prefix[3 * p + 1], right = prefix[3 * p + 2];
    unsigned avail = full & ~(cols | left | right);
    unsigned found = 0;
    int depth = 0; // rows placed beyond the prefix

    for (;;) {
        if (avail == 0) {
            if (depth == 0)
                break;
            depth--;
            unsigned *s = nq_stack + (depth * 4) * nt + tid;
            cols = s[0];
            left = s[nt];
            right = s[2 * nt];
            avail = s[3 * nt];
            continue;
        }
        unsigned bit = avail & (0u - avail);
        avail ^= bit;
        if (depth + 1 == rows) { // this was the last row: a solution
            found++;
            continue;
        }
        unsigned *s = nq_stack + (depth * 4) * nt + tid;
        s[0] = cols;
        s[nt] = left;
        s[2 * nt] = right;
        s[3 * nt] = avail;
        depth++;
        cols |= bit;
        left = ((left | bit) << 1) & full;
        right = (right | bit) >> 1;
        avail = full & ~(cols | left | right);
    }
    count[p] = found;
}
