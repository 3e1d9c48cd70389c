// SPDX-License-Identifier: MIT
// preempter.cu - the synthetic high-priority preempting task of Shieh's dual-kernel preemption
// study (Shieh 2016 §4.2, digest §5.2 and Appendix A): 256 threads per CTA, 4096 registers per
// CTA (16 per thread) and 2048 B of shared memory per CTA, "with real world benchmark behavior".
// The behaviour is unspecified there; this kernel behaves like Rodinia's pathfinder, the
// benchmark with exactly that footprint: a row-by-row dynamic programme in shared memory with two
// barriers per row.
//
// The problem: the cheapest vertical seam through an energy map (seam carving), where a diagonal
// step costs `penalty` extra:
//   cost[r][c] = energy[r][c] + min(cost[r-1][c], cost[r-1][c-1] + penalty, cost[r-1][c+1] + penalty)
// Pyramid tiling: a CTA keeps 256 columns of the cost row in shared memory (prev, next: 2 x 1 KB)
// and advances `steps` rows; after row k only columns k+1 away from the CTA's borders are exact,
// so each CTA writes its inner 256 - 2 steps columns and neighbours overlap.
//
// Registers: ptx.flags builds it with -DMAXREG=16 (__maxnreg__(16), PTX .maxnreg 16), so that
// both ptxas and our register allocator use exactly the 16 registers per thread of the paper's
// 4096 per CTA (without the cap our allocator takes 18, as for pathfinder).
//
// Reads `src` and `energy`, writes `dst` (ping-pong rows): idempotent.

#define HD_PE_BLOCK 256 // threads per CTA (must match preempter.c)
#ifdef MAXREG
#define HD_PE_REGS __maxnreg__(MAXREG)
#else
#define HD_PE_REGS
#endif

extern "C" __global__ void HD_PE_REGS pe_seam_rows(const int *__restrict__ energy,
                                                   const int *__restrict__ src,
                                                   int *__restrict__ dst, int cols, int row,
                                                   int steps, int penalty)
{
    __shared__ int prev[HD_PE_BLOCK];
    __shared__ int next[HD_PE_BLOCK];

    int t = threadIdx.x;
    int width = HD_PE_BLOCK - 2 * steps;     // columns written per CTA
    int c = blockIdx.x * width - steps + t;  // this thread's column
    bool inside = c >= 0 && c < cols;

    if (inside)
        prev[t] = src[c];
    __syncthreads();

    for (int k = 0; k < steps; k++) {
        bool live = inside && t > k && t < HD_PE_BLOCK - 1 - k;
        if (live) {
            int best = prev[t];
            if (c > 0)
                best = min(best, prev[t - 1] + penalty);
            if (c < cols - 1)
                best = min(best, prev[t + 1] + penalty);
            next[t] = energy[(row + 1 + k) * cols + c] + best;
        }
        __syncthreads();
        if (live)
            prev[t] = next[t];
        __syncthreads();
    }

    if (inside && t >= steps && t < HD_PE_BLOCK - steps)
        dst[c] = prev[t];
}
