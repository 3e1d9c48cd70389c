// SPDX-License-Identifier: MIT
// sad.cu - sums of absolute differences for full-search motion estimation (Parboil "sad"; Lin
// thesis ch.3 Table 3.2 "SAD_1, SAD_2": SAD_1 compute-intensive, SAD_2 DRAM-intensive in Fig 3.4;
// ch.4 Table 4.2 "SAD", DBI).
//
// For each 16x16 macroblock (MB) of the current frame and each search position (dx, dy) in
// [-SAD_R, SAD_R]^2 (SAD_NPOS positions, numbered pos = (dy + R) * (2R + 1) + dx + R), the SAD
// between the MB's pixels and the reference frame's pixels displaced by (dx, dy), coordinates
// clamped to the frame (Parboil reads the reference through a clamping texture):
//   sad_4x4 (SAD_1): one CTA per MB, SAD_TB threads. The CTA loads the MB's search window
//     (16 + 2R)^2 reference pixels, clamped, into shared memory; thread t owns 4x4 sub-block
//     t % 16 (its 16 current pixels in registers) and the positions t / 16, t / 16 + SAD_TB / 16,
//     ...; it writes the 16 sub-block SADs of a position contiguously:
//     sads4[(mb * NPOS + pos) * 16 + blk], blk = 4 * (row of the 4x4 block) + column.
//   sad_merge (SAD_2): one thread per (MB, position) sums them into the larger block shapes:
//     out[(mb * NPOS + pos) * 9 + s], s = 0..3 the 8x8 blocks (row-major), 4..5 the 16x8 halves
//     (top, bottom), 6..7 the 8x16 halves (left, right), 8 the whole 16x16 MB.
// SADs are unsigned 16-bit (at most 256 * 255), as in Parboil.
//
// Idempotent: both kernels read their inputs and write only their own output elements.

#define SAD_R 16                      // search range; must match sad.c
#define SAD_SIDE (2 * SAD_R + 1)      // 33
#define SAD_NPOS (SAD_SIDE * SAD_SIDE) // 1089 positions
#define SAD_WIN (16 + 2 * SAD_R)      // search window edge, 48
#ifndef SAD_TB
#define SAD_TB 128 // threads per CTA of sad_4x4; a multiple of 16; must match sad.c
#endif

extern "C" __global__ void __launch_bounds__(SAD_TB)
    sad_4x4(const unsigned char *__restrict__ cur, const unsigned char *__restrict__ ref,
            unsigned short *__restrict__ sads4, int width, int height)
{
    __shared__ unsigned char win[SAD_WIN * SAD_WIN];
    const int mbx = blockIdx.x, mby = blockIdx.y, mb = mby * gridDim.x + mbx;
    const int x0 = mbx * 16 - SAD_R, y0 = mby * 16 - SAD_R;
    for (int k = threadIdx.x; k < SAD_WIN * SAD_WIN; k += SAD_TB) {
        int x = min(max(x0 + k % SAD_WIN, 0), width - 1);
        int y = min(max(y0 + k / SAD_WIN, 0), height - 1);
        win[k] = ref[y * width + x];
    }
    const int blk = threadIdx.x & 15, bx = (blk & 3) * 4, by = (blk >> 2) * 4;
    unsigned c[16];
#pragma unroll
    for (int y = 0; y < 4; y++)
#pragma unroll
        for (int x = 0; x < 4; x++)
            c[y * 4 + x] = cur[(mby * 16 + by + y) * width + mbx * 16 + bx + x];
    __syncthreads();
    for (int pos = threadIdx.x >> 4; pos < SAD_NPOS; pos += SAD_TB / 16) {
        const int dy = pos / SAD_SIDE, dx = pos % SAD_SIDE; // window offsets = d + R
        const unsigned char *w = win + (by + dy) * SAD_WIN + bx + dx;
        unsigned s = 0;
#pragma unroll
        for (int y = 0; y < 4; y++)
#pragma unroll
            for (int x = 0; x < 4; x++)
                s += abs((int)c[y * 4 + x] - (int)w[y * SAD_WIN + x]);
        sads4[((size_t)mb * SAD_NPOS + pos) * 16 + blk] = (unsigned short)s;
    }
}

extern "C" __global__ void sad_merge(const unsigned short *__restrict__ sads4,
                                     unsigned short *__restrict__ out, int n_mb)
{
    const int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= n_mb * SAD_NPOS)
        return;
    const unsigned short *s = sads4 + (size_t)t * 16;
    unsigned q[4]; // 8x8 quadrants: sub-blocks (2 qy + {0,1}) * 4 + 2 qx + {0,1}
#pragma unroll
    for (int k = 0; k < 4; k++) {
        int b = (k >> 1) * 8 + (k & 1) * 2;
        q[k] = s[b] + s[b + 1] + s[b + 4] + s[b + 5];
    }
    unsigned short *o = out + (size_t)t * 9;
#pragma unroll
    for (int k = 0; k < 4; k++)
        o[k] = (unsigned short)q[k];
    o[4] = (unsigned short)(q[0] + q[1]);
    o[5] = (unsigned short)(q[2] + q[3]);
    o[6] = (unsigned short)(q[0] + q[2]);
    o[7] = (unsigned short)(q[1] + q[3]);
    o[8] = (unsigned short)(q[0] + q[1] + q[2] + q[3]);
}
