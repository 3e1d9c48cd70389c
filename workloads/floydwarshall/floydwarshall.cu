// SPDX-License-Identifier: MIT
// floydwarshall.cu - all-pairs shortest paths, one launch per intermediate vertex k.
//
// dist is an n x n row-major matrix of int path lengths (FW_INF = no path). Launch k relaxes
// every pair through k: dist[i][j] = min(dist[i][j], dist[i][k] + dist[k][j]). With
// non-negative weights and dist[k][k] = 0, row k and column k do not change during launch k,
// so CTAs of one launch never race, and re-running a CTA recomputes the same minima.
// FW_INF + FW_INF does not overflow, so no test for "no path" is needed.

#define FW_INF 0x3fffffff

extern "C" __global__ void fw_relax(int *__restrict__ dist, int n, int k)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    if (i >= n || j >= n)
        return;
    int through = dist[(size_t)i * n + k] + dist[(size_t)k * n + j];
    if (through < dist[(size_t)i * n + j])
        dist[(size_t)i * n + j] = through;
}
