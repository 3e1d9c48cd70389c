// SPDX-License-Identifier: MIT
// pathfinder.cu - dynamic programming for the cheapest top-to-bottom path through a grid of
// weights, where each step goes down to the same column or a diagonal neighbour:
//   cost[r][c] = wall[r][c] + min(cost[r-1][c-1], cost[r-1][c], cost[r-1][c+1])
// (a neighbour outside the grid is simply not a candidate).
//
// Pyramid tiling over rows: a CTA of 256 threads owns 256 consecutive columns of the previous cost
// row in shared memory and advances them `steps` rows. After row k of the launch only columns at
// least k+1 away from the CTA's borders are still exact, so a CTA writes its inner 256 - 2*steps
// columns and neighbouring CTAs overlap by `steps` columns on each side. Two shared arrays: the
// previous row and the new row, with two barriers per row. Reads `src`, writes `dst`: idempotent.

#define HD_PF_BLOCK 256

extern "C" __global__ void pf_dynproc(const int *__restrict__ wall, const int *__restrict__ src,
                                      int *__restrict__ dst, int cols, int start_row, int steps)
{
    __shared__ int prev[HD_PF_BLOCK];
    __shared__ int next[HD_PF_BLOCK];

    int tx = threadIdx.x;
    int out = HD_PF_BLOCK - 2 * steps;
    int c = blockIdx.x * out - steps + tx;     // global column
    bool inside = c >= 0 && c < cols;

    if (inside)
        prev[tx] = src[c];
    __syncthreads();

    for (int k = 0; k < steps; k++) {
        bool computed = inside && tx >= k + 1 && tx <= HD_PF_BLOCK - 2 - k;
        if (computed) {
            int best = prev[tx];
            if (c > 0)
                best = min(best, prev[tx - 1]);
            if (c < cols - 1)
                best = min(best, prev[tx + 1]);
            next[tx] = wall[(start_row + 1 + k) * cols + c] + best;
        }
        __syncthreads();
        if (computed)
            prev[tx] = next[tx];
        __syncthreads();
    }

    if (inside && tx >= steps && tx < HD_PF_BLOCK - steps)
        dst[c] = prev[tx];
}
