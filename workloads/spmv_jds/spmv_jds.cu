// SPDX-License-Identifier: MIT
// spmv_jds.cu - sparse matrix-vector product y = A x in the jagged diagonal storage (JDS)
// format, one thread per row: a stand-in for Parboil's spmv (Lin thesis Table 3.2's SPMV).
//
// Layout (built by spmv_jds.c): the rows are sorted by length, longest first, and perm[i] is
// the original index of sorted row i. Sorted rows are grouped in warps of 32; a warp's depth
// (its first row's length, the longest in it) is the number of jagged diagonals its threads
// walk, so the loop count is uniform in a warp and rows shorter than their warp's first row
// read padding entries (value 0). Jagged diagonal k starts at c_diag_ptr[k] and holds entry k
// of every sorted row of the warps deeper than k, so entry k of sorted row i is at
// c_diag_ptr[k] + i: the 32 threads of a warp read 32 consecutive words of vals and of cols
// (coalesced) and gather only x by column index. The per-warp depths and the diagonal
// pointers are small tables every thread of a warp reads at the same address, kept in
// constant memory as Parboil keeps its own.
//
// x is read with ordinary global loads: Parboil's cuda_tex version reads it through the
// texture cache, which Heddle does not model (its L1D takes every global load).
//
// Idempotent: the kernel reads A, x and the tables and writes only y (each element once, by
// the thread of its row), so re-running any CTA, or the whole launch, writes the same y.

#define JDS_WARP 32          // rows per depth entry; must match spmv_jds.c
#define JDS_MAX_WARPS 8192   // capacity of c_warp_depth; must match spmv_jds.c
#define JDS_MAX_DIAGS 1024   // capacity of c_diag_ptr; must match spmv_jds.c

__constant__ int c_warp_depth[JDS_MAX_WARPS];
__constant__ int c_diag_ptr[JDS_MAX_DIAGS];

extern "C" __global__ void spmv_jds(int nrows, const float *__restrict__ vals,
                                    const int *__restrict__ cols, const int *__restrict__ perm,
                                    const float *x, float *__restrict__ y)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= nrows)
        return;
    int depth = c_warp_depth[i / JDS_WARP];
    float sum = 0.0f;
    for (int k = 0; k < depth; k++) {
        int e = c_diag_ptr[k] + i;
        sum += vals[e] * x[cols[e]];
    }
    y[perm[i]] = sum;
}
