// 64-bit compare-and-swap loops (a double maximum, a 64-bit product, packed 32+32-bit counters),
// cooperative_groups tiles (thread_block_tile<32>::shfl_down reductions, tiles of 8 with
// shfl_xor/shfl/ballot/any/all, cg::reduce) and read-only __ldg loads of several widths.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;

__device__ double atomic_max_f64(double *addr, double v)
{
    unsigned long long *p = (unsigned long long *)addr;
    unsigned long long old = *p, assumed;
    do {
        assumed = old;
        if (__longlong_as_double(assumed) >= v) break;
        old = atomicCAS(p, assumed, (unsigned long long)__double_as_longlong(v));
    } while (assumed != old);
    return __longlong_as_double(old);
}

// acc[0]: double max of in; acc[1]: product of mul (mod 2^64); acc[2]: (count << 32) | sum
extern "C" __global__ void cas64(const double *in, const unsigned long long *mul,
                                 unsigned long long *acc, int n)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= n) return;
    atomic_max_f64((double *)&acc[0], in[t]);
    unsigned long long old = acc[1], assumed;
    do {
        assumed = old;
        old = atomicCAS(&acc[1], assumed, assumed * mul[t]);
    } while (assumed != old);
    old = acc[2];
    do {
        assumed = old;
        unsigned long long cnt = (assumed >> 32) + 1, sum = (assumed + (unsigned)t) & 0xffffffffull;
        old = atomicCAS(&acc[2], assumed, cnt << 32 | sum);
    } while (assumed != old);
}

// Per warp: sums[warp] = sum of in over the warp (shfl_down); per tile of 8: out[4 t ..]
extern "C" __global__ void cg_tiles(const int *in, int *sums, int *out, int n)
{
    cg::thread_block blk = cg::this_thread_block();
    cg::thread_block_tile<32> w = cg::tiled_partition<32>(blk);
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    int v = t < n ? in[t] : 0;
    int s = v;
    for (int o = w.size() / 2; o > 0; o /= 2)
        s += w.shfl_down(s, o);
    if (w.thread_rank() == 0)
        sums[blockIdx.x * (blockDim.x / 32) + w.meta_group_rank()] = s;
    cg::thread_block_tile<8> g = cg::tiled_partition<8>(blk);
    int mx = v;
    for (int o = 4; o > 0; o /= 2)
        mx = max(mx, g.shfl_xor(mx, o));
    int third = g.shfl(v, 3);
    unsigned odd = g.ballot(v & 1);
    int anyneg = g.any(v < 0), allpos = g.all(v > 0);
    int sum8 = cg::reduce(g, v, cg::plus<int>());
    blk.sync();
    if (t < n) {
        out[4 * t + 0] = mx;
        out[4 * t + 1] = third + (int)g.thread_rank() * 1000;
        out[4 * t + 2] = (int)odd | anyneg << 8 | allpos << 9 | (int)g.meta_group_rank() << 10;
        out[4 * t + 3] = sum8;
    }
}

// Read-only loads of several widths through __ldg; out[t] mixes them into one double.
extern "C" __global__ void ldg_mix(const float4 *f4, const int2 *i2, const double *d,
                                   const unsigned char *uc, const short *s,
                                   const unsigned long long *u64, double *out, int n)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= n) return;
    float4 a = __ldg(&f4[t]);
    int2 b = __ldg(&i2[n - 1 - t]);
    double c = __ldg(&d[t]);
    unsigned char e = __ldg(&uc[t]);
    short h = __ldg(&s[t]);
    unsigned long long u = __ldg(&u64[t]);
    out[t] = (double)(a.x + a.y * 2.0f + a.z * 4.0f + a.w * 8.0f) + (double)b.x * 16.0 -
             (double)b.y + c + (double)e * 0.5 + (double)h * 0.25 + (double)(u >> 40);
}
