// SPDX-License-Identifier: MIT
// scan.cu - exclusive prefix sum of 32-bit unsigned integers (SDK scanLargeArray-like).
//
// scan_block: each CTA scans a tile of 2*SCAN_THREADS elements in shared memory with the
// work-efficient (Blelloch) algorithm: an up-sweep builds partial sums in a balanced tree
// (log2(tile) levels, a barrier each), the root is saved as the tile's total and cleared, and
// a down-sweep pushes prefixes back to the leaves. Shared indices skip one word every 32
// (i + i/32) so that the strided tree accesses avoid bank conflicts. The tile's total goes to
// sums[blockIdx.x].
// scan_add: out[i] = partial[i] + scanned_sums[i / tile], the second pass.
// The host scans the sums array with the same two kernels, recursively, until one tile
// covers it. Every kernel writes a buffer it does not read. Arithmetic wraps modulo 2^32.
//
// Resource-specification variants (ptx.flags, README): SCAN_THREADS (threads per CTA of
// scan_block, 64 to 1024; the tile and its shared memory scale with it) and MAXREG (register cap
// of scan_block, __maxnreg__, which replaces its launch bounds: nvcc accepts only one of them).

#ifndef SCAN_THREADS
#define SCAN_THREADS 256
#endif
#define SCAN_TILE (2 * SCAN_THREADS)
#define SCAN_PAD(i) ((i) + ((i) >> 5))
#ifdef MAXREG
#define SCAN_BOUNDS __maxnreg__(MAXREG)
#else
#define SCAN_BOUNDS __launch_bounds__(SCAN_THREADS)
#endif

extern "C" __global__ void SCAN_BOUNDS
scan_block(const unsigned *__restrict__ in, unsigned *__restrict__ out,
           unsigned *__restrict__ sums, unsigned n)
{
    __shared__ unsigned t[SCAN_PAD(SCAN_TILE)];
    const unsigned tid = threadIdx.x;
    const unsigned base = blockIdx.x * SCAN_TILE;
    const unsigned a = tid, b = tid + SCAN_THREADS;
    t[SCAN_PAD(a)] = base + a < n ? in[base + a] : 0u;
    t[SCAN_PAD(b)] = base + b < n ? in[base + b] : 0u;

    unsigned stride = 1;
    for (unsigned active = SCAN_THREADS; active > 0; active >>= 1) {
        __syncthreads();
        if (tid < active) {
            unsigned i = stride * (2 * tid + 1) - 1;
            unsigned j = stride * (2 * tid + 2) - 1;
            t[SCAN_PAD(j)] += t[SCAN_PAD(i)];
        }
        stride <<= 1;
    }
    __syncthreads();
    if (tid == 0) {
        sums[blockIdx.x] = t[SCAN_PAD(SCAN_TILE - 1)];
        t[SCAN_PAD(SCAN_TILE - 1)] = 0u;
    }
    for (unsigned active = 1; active < SCAN_TILE; active <<= 1) {
        stride >>= 1;
        __syncthreads();
        if (tid < active) {
            unsigned i = stride * (2 * tid + 1) - 1;
            unsigned j = stride * (2 * tid + 2) - 1;
            unsigned left = t[SCAN_PAD(i)];
            t[SCAN_PAD(i)] = t[SCAN_PAD(j)];
            t[SCAN_PAD(j)] += left;
        }
    }
    __syncthreads();
    if (base + a < n)
        out[base + a] = t[SCAN_PAD(a)];
    if (base + b < n)
        out[base + b] = t[SCAN_PAD(b)];
}

extern "C" __global__ void scan_add(const unsigned *__restrict__ partial,
                                    const unsigned *__restrict__ scanned_sums,
                                    unsigned *__restrict__ out, unsigned n)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = partial[i] + scanned_sums[i / SCAN_TILE];
}
