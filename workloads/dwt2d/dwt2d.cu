// SPDX-License-Identifier: MIT
// dwt2d.cu - forward 2-D discrete wavelet transform of an RGB image with the reversible CDF 5/3
// (LeGall) integer lifting scheme of JPEG 2000, in the manner of Rodinia's dwt2d (Lin's thesis
// Table 2.2, DWT_1 and DWT_2).
//
// dwt_copy_components (DWT_1 stand-in, c_CopySrcToComponents): 256 threads per CTA; the CTA's
// 256 interleaved RGB pixels (768 bytes) are staged in shared memory with word loads, then each
// thread splits its pixel into three integer planes with the DC level shift of JPEG 2000 (-128).
//
// dwt_fdwt53 (DWT_2 stand-in, fdwt53Kernel): one level of the 2-D transform of one plane. A CTA of
// HD_DWT_TX (192) threads owns a strip of 192 input columns and HD_DWT_TY (8) input rows. It loads
// the tile with a halo of two rows/columns before and one after (whole-sample symmetric extension
// at the image borders, x[-i] = x[i], x[n-1+i] = x[n-1-i]) into shared memory, lifts every row in
// place (predict on odd columns, then update on even ones), and then each thread walks down its
// column doing the vertical lifting with a sliding window held in registers (as Rodinia's
// vertical sliding transform does):
//   predict  d[i] = x[2i+1] - floor((x[2i] + x[2i+2]) / 2)
//   update   s[i] = x[2i]   + floor((d[i-1] + d[i] + 2) / 4)
// Output in the Mallat layout of the level's w x h region: low-pass columns to the left half,
// high-pass to the right, low-pass rows to the top half, high-pass to the bottom. w and h are
// even. The host repeats the kernel on the LL quarter for further levels.
//
// Both kernels read their inputs and write separate outputs (every level has its own output
// buffer), so re-running any CTA from its start leaves memory as one run does: idempotent.

#ifndef HD_DWT_COPY_BLOCK      // a multiple of 4 (variant dwt2d_copy64_r56, ptx.flags: 64)
#define HD_DWT_COPY_BLOCK 256 // threads per CTA of dwt_copy_components (must match dwt2d.c)
#endif
#define HD_DWT_TX 192         // threads per CTA of dwt_fdwt53 = input columns per strip (must match)
#define HD_DWT_TY 8           // input rows per CTA of dwt_fdwt53, even (must match dwt2d.c)
#define HD_DWT_W (HD_DWT_TX + 4) // tile columns: 2 before, 1 after, 1 of padding
#define HD_DWT_H (HD_DWT_TY + 3) // tile rows: 2 before, 1 after

extern "C" __global__ void __launch_bounds__(HD_DWT_COPY_BLOCK)
    dwt_copy_components(const unsigned int *__restrict__ rgb, int *__restrict__ red,
                        int *__restrict__ green, int *__restrict__ blue, int pixels)
{
    __shared__ unsigned int words[3 * HD_DWT_COPY_BLOCK / 4];

    int base = blockIdx.x * HD_DWT_COPY_BLOCK; // first pixel of this CTA
    int n = min(HD_DWT_COPY_BLOCK, pixels - base);
    int nwords = (3 * n + 3) / 4;              // the device buffer is padded to whole words
    const unsigned int *src = rgb + 3 * base / 4; // 3 * block * blockIdx.x bytes: word aligned
    int t = threadIdx.x;
    if (t < nwords) // at most 192 words: one per thread
        words[t] = src[t];
    __syncthreads();

    if (t < n) {
        const unsigned char *bytes = (const unsigned char *)words;
        red[base + t] = (int)bytes[3 * t] - 128;
        green[base + t] = (int)bytes[3 * t + 1] - 128;
        blue[base + t] = (int)bytes[3 * t + 2] - 128;
    }
}

// Whole-sample symmetric extension of index i into [0, n), then clamped (n >= 2).
__device__ __forceinline__ int dwt_mirror(int i, int n)
{
    i = i < 0 ? -i : i;
    i = i >= n ? 2 * n - 2 - i : i;
    return max(0, min(i, n - 1));
}

extern "C" __global__ void __launch_bounds__(HD_DWT_TX)
    dwt_fdwt53(const int *__restrict__ src, int src_stride, int *__restrict__ dst, int dst_stride,
               int w, int h)
{
    __shared__ int tile[HD_DWT_H][HD_DWT_W];

    int c0 = blockIdx.x * HD_DWT_TX; // first input column of the strip (even)
    int r0 = blockIdx.y * HD_DWT_TY; // first input row (even)
    int t = threadIdx.x;

    // Tile row y holds image row r0 - 2 + y, tile column x image column c0 - 2 + x. (Unrolled
    // by 3: ptxas then needs 26 registers, so 5 CTAs fit per GTX480 SM as in Lin's Table 2.2;
    // nvcc's default unrolling takes 37 and would leave 4.)
#pragma unroll 3
    for (int k = t; k < HD_DWT_H * (HD_DWT_W - 1); k += HD_DWT_TX) {
        int y = k / (HD_DWT_W - 1), x = k - y * (HD_DWT_W - 1);
        int gy = dwt_mirror(r0 - 2 + y, h), gx = dwt_mirror(c0 - 2 + x, w);
        tile[y][x] = src[gy * src_stride + gx];
    }
    __syncthreads();

    // Horizontal predict: odd image columns c0-1 .. c0+TX-1 (tile columns 1, 3, .., TX+1).
    const int npred = HD_DWT_TX / 2 + 1;
    for (int k = t; k < HD_DWT_H * npred; k += HD_DWT_TX) {
        int y = k / npred, x = 2 * (k - y * npred) + 1;
        tile[y][x] -= (tile[y][x - 1] + tile[y][x + 1]) >> 1;
    }
    __syncthreads();
    // Horizontal update: even image columns c0 .. c0+TX-2 (tile columns 2, 4, .., TX).
    const int nupd = HD_DWT_TX / 2;
    for (int k = t; k < HD_DWT_H * nupd; k += HD_DWT_TX) {
        int y = k / nupd, x = 2 * (k - y * nupd) + 2;
        tile[y][x] += (tile[y][x - 1] + tile[y][x + 1] + 2) >> 2;
    }
    __syncthreads();

    // Vertical lifting down tile column t + 2 (image column c0 + t), sliding in registers.
    int gx = c0 + t;
    if (gx >= w)
        return;
    int col = t + 2;
    int out_x = (gx & 1) ? w / 2 + gx / 2 : gx / 2;
    int even = tile[2][col];                                       // image row r0
    int d_prev = tile[1][col] - ((tile[0][col] + even) >> 1);       // d at row r0 - 1
    int *low = dst + (r0 / 2) * dst_stride + out_x;
    int *high = dst + (h / 2 + r0 / 2) * dst_stride + out_x;
#pragma unroll
    for (int k = 0; k < HD_DWT_TY / 2; k++) {
        if (r0 + 2 * k >= h)
            break;
        int odd = tile[3 + 2 * k][col], next = tile[4 + 2 * k][col];
        int d = odd - ((even + next) >> 1);
        int s = even + ((d_prev + d + 2) >> 2);
        low[k * dst_stride] = s;
        high[k * dst_stride] = d;
        d_prev = d;
        even = next;
    }
}
