// SPDX-License-Identifier: MIT
// sgemm.cu - single-precision matrix multiply, C = alpha * A * B + beta * C, with square tiles.
//
// Row-major A (m x k), B (k x n), C (m x n). A CTA computes one TILE x TILE tile of C (16x16 by
// default); each thread owns RPT elements of it, RPT rows apart by TILE / RPT (one by default), so
// the CTA is TILE x (TILE / RPT) threads. The CTA walks the k dimension one TILE-wide slab at a
// time: its threads load the slab of A and of B into shared memory (RPT elements of each per
// thread; zero outside the matrices, so any m, n, k work), a barrier, TILE multiply-adds per
// owned element from shared memory, a barrier. Compute-bound with shared-memory reuse; the edge
// tiles of odd sizes diverge.
//
// Resource-specification variants (ptx.flags, README): TILE (8, 16, 32) sets threads per CTA and
// shared memory per CTA (2 TILE^2 floats); RPT (1, 2, 4) trades threads for registers (RPT
// accumulators per thread); MAXREG caps registers per thread (__maxnreg__, PTX .maxnreg).
//
// Idempotent: the old C is a separate input C0 that the kernel never writes, and each thread
// writes only its own elements of C, so re-running a CTA from its start recomputes the same values.

#ifndef TILE /* a variant may set it with -DTILE=N in ptx.flags; the driver must match */
#define TILE 16
#endif
#ifndef RPT /* elements of C per thread; divides TILE */
#define RPT 1
#endif
#define ROWS (TILE / RPT) /* threads per CTA column, and the row stride of a thread's elements */
#ifdef MAXREG
#define SGEMM_REGS __maxnreg__(MAXREG)
#else
#define SGEMM_REGS
#endif

extern "C" __global__ void SGEMM_REGS sgemm_tiled(const float *__restrict__ A,
                                                  const float *__restrict__ B,
                                                  const float *__restrict__ C0,
                                                  float *__restrict__ C, int m, int n, int k,
                                                  float alpha, float beta)
{
    __shared__ float As[TILE][TILE];
    __shared__ float Bs[TILE][TILE];

    int tx = threadIdx.x, ty = threadIdx.y;
#if RPT == 1 /* the base kernel, one element per thread */
    int row = blockIdx.y * TILE + ty;
    int col = blockIdx.x * TILE + tx;
    float acc = 0.0f;

    for (int k0 = 0; k0 < k; k0 += TILE) {
        int ka = k0 + tx; /* column of A loaded by this thread */
        int kb = k0 + ty; /* row of B loaded by this thread */
        As[ty][tx] = (row < m && ka < k) ? A[(size_t)row * k + ka] : 0.0f;
        Bs[ty][tx] = (kb < k && col < n) ? B[(size_t)kb * n + col] : 0.0f;
        __syncthreads();
#pragma unroll
        for (int kk = 0; kk < TILE; ++kk)
            acc += As[ty][kk] * Bs[kk][tx];
        __syncthreads();
    }

    if (row < m && col < n) {
        size_t idx = (size_t)row * n + col;
        C[idx] = alpha * acc + beta * C0[idx];
    }
#else /* RPT elements per thread, ROWS rows apart */
    int col = blockIdx.x * TILE + tx;
    float acc[RPT];
#pragma unroll
    for (int r = 0; r < RPT; r++)
        acc[r] = 0.0f;

    for (int k0 = 0; k0 < k; k0 += TILE) {
        int ka = k0 + tx; /* column of A loaded by this thread */
#pragma unroll
        for (int r = 0; r < RPT; r++) {
            int ty_r = ty + r * ROWS;
            int row = blockIdx.y * TILE + ty_r;
            int kb = k0 + ty_r; /* row of B loaded by this thread */
            As[ty_r][tx] = (row < m && ka < k) ? A[(size_t)row * k + ka] : 0.0f;
            Bs[ty_r][tx] = (kb < k && col < n) ? B[(size_t)kb * n + col] : 0.0f;
        }
        __syncthreads();
#pragma unroll
        for (int kk = 0; kk < TILE; ++kk)
#pragma unroll
            for (int r = 0; r < RPT; r++)
                acc[r] += As[ty + r * ROWS][kk] * Bs[kk][tx];
        __syncthreads();
    }

#pragma unroll
    for (int r = 0; r < RPT; r++) {
        int row = blockIdx.y * TILE + ty + r * ROWS;
        if (row < m && col < n) {
            size_t idx = (size_t)row * n + col;
            C[idx] = alpha * acc[r] + beta * C0[idx];
        }
    }
#endif
}
