// SPDX-License-Identifier: MIT
// heartwall.cu - tracking of points on the wall of a beating heart through a sequence of frames
// by template matching, in the manner of Rodinia's heartwall (Lin's thesis Table 2.2, HW_1).
//
// hw_track processes one frame: one CTA of 256 threads per tracked point. The CTA stages in
// shared memory the point's current template (HD_HW_T x HD_HW_T pixels) and the search window of
// the frame around the point's previous position (the template plus HD_HW_R pixels on every
// side; pixels outside the frame are clamped to its border). Each thread scores its share of the
// (2 radius + 1)^2 candidate displacements (radius <= HD_HW_R: the small size searches less of
// the window) by the sum of squared differences between the template and
// the window under it; a tree reduction in shared memory picks the best (lowest score, then the
// lowest candidate index, so the result does not depend on the order of evaluation). Thread 0
// writes the point's new position and score, and all threads write the updated template: the
// old one blended with the matched patch, t' = (3 t + p + 2) / 4 (Rodinia updates its templates
// during tracking as well).
//
// The kernel reads the previous positions and templates and writes the next ones into separate
// buffers (the host ping-pongs them per frame), so re-running a CTA from its start leaves memory
// as one run does: idempotent.
//
// Knob (Shieh Table 4.2 variant heartwall_r32, ptx.flags): MAXREG caps the registers per thread
// (__maxnreg__, which replaces the launch bounds); undefined in the base, whose PTX it leaves
// unchanged.

#define HD_HW_T 21                              // template edge in pixels (must match heartwall.c)
#define HD_HW_R 12                              // largest search radius (must match heartwall.c)
#define HD_HW_WIN (HD_HW_T + 2 * HD_HW_R)       // search window edge: 45
#define HD_HW_THREADS 256                       // threads per CTA (must match heartwall.c)

#ifdef MAXREG
#define HD_HW_BOUNDS __maxnreg__(MAXREG)
#else
#define HD_HW_BOUNDS __launch_bounds__(HD_HW_THREADS)
#endif

extern "C" __global__ void HD_HW_BOUNDS
    hw_track(const unsigned char *__restrict__ frame, int fw, int fh,
             const int *__restrict__ tmpl_in, const int *__restrict__ pos_in,
             int *__restrict__ tmpl_out, int *__restrict__ pos_out,
             unsigned int *__restrict__ score_out, int radius)
{
    __shared__ int tmpl[HD_HW_T * HD_HW_T];
    __shared__ int win[HD_HW_WIN * HD_HW_WIN];
    __shared__ unsigned int red_score[HD_HW_THREADS];
    __shared__ int red_index[HD_HW_THREADS];

    int p = blockIdx.x, t = threadIdx.x;
    int px = pos_in[2 * p], py = pos_in[2 * p + 1];
    int wx0 = px - HD_HW_R - HD_HW_T / 2, wy0 = py - HD_HW_R - HD_HW_T / 2;

    const int *my_tmpl = tmpl_in + p * HD_HW_T * HD_HW_T;
    for (int k = t; k < HD_HW_T * HD_HW_T; k += HD_HW_THREADS)
        tmpl[k] = my_tmpl[k];
    for (int k = t; k < HD_HW_WIN * HD_HW_WIN; k += HD_HW_THREADS) {
        int y = k / HD_HW_WIN, x = k - y * HD_HW_WIN;
        int gx = min(max(wx0 + x, 0), fw - 1), gy = min(max(wy0 + y, 0), fh - 1);
        win[k] = frame[gy * fw + gx];
    }
    __syncthreads();

    unsigned int best = 0xffffffffu;
    int best_index = 0x7fffffff;
    const int span = 2 * radius + 1, skip = HD_HW_R - radius; // candidates, unused border
    for (int c = t; c < span * span; c += HD_HW_THREADS) {
        int oy = c / span + skip, ox = c % span + skip;
        const int *w = win + oy * HD_HW_WIN + ox;
        unsigned int ssd = 0;
        for (int ty = 0; ty < HD_HW_T; ty++) {
#pragma unroll 1
            for (int tx = 0; tx < HD_HW_T; tx++) {
                int d = w[ty * HD_HW_WIN + tx] - tmpl[ty * HD_HW_T + tx];
                ssd += (unsigned int)(d * d);
            }
        }
        if (ssd < best) { // c grows, so a tie keeps the lower index
            best = ssd;
            best_index = c;
        }
    }
    red_score[t] = best;
    red_index[t] = best_index;
    __syncthreads();
    for (int s = HD_HW_THREADS / 2; s > 0; s >>= 1) {
        if (t < s) {
            unsigned int o = red_score[t + s];
            int oi = red_index[t + s];
            if (o < red_score[t] || (o == red_score[t] && oi < red_index[t])) {
                red_score[t] = o;
                red_index[t] = oi;
            }
        }
        __syncthreads();
    }

    int c = red_index[0];
    int oy = c / span + skip, ox = c % span + skip;
    if (t == 0) {
        pos_out[2 * p] = px + ox - HD_HW_R;
        pos_out[2 * p + 1] = py + oy - HD_HW_R;
        score_out[p] = red_score[0];
    }
    int *next = tmpl_out + p * HD_HW_T * HD_HW_T;
    for (int k = t; k < HD_HW_T * HD_HW_T; k += HD_HW_THREADS) {
        int y = k / HD_HW_T, x = k - y * HD_HW_T;
        next[k] = (3 * tmpl[k] + win[(oy + y) * HD_HW_WIN + ox + x] + 2) >> 2;
    }
}
