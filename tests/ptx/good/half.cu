// __half / __half2 / __nv_bfloat16 arithmetic through the cuda_fp16.h and cuda_bf16.h
// intrinsics (add, sub, mul, fma, division, saturation, negation, comparisons, packing,
// conversions with every rounding), one input triple per thread; results are raw bits.
#include <cuda_fp16.h>
#include <cuda_bf16.h>

#define NH 24 // results per thread of half_ops

extern "C" __global__ void half_ops(const unsigned short *ua, const unsigned short *ub,
                                    const unsigned short *uc, unsigned short *out, int n)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= n) return;
    __half a = __ushort_as_half(ua[t]), b = __ushort_as_half(ub[t]), c = __ushort_as_half(uc[t]);
    unsigned short *o = out + NH * t;
    o[0] = __half_as_ushort(__hadd(a, b));
    o[1] = __half_as_ushort(__hsub(a, b));
    o[2] = __half_as_ushort(__hmul(a, b));
    o[3] = __half_as_ushort(__hfma(a, b, c));
    o[4] = __half_as_ushort(__hdiv(a, b));
    o[5] = __half_as_ushort(__hadd_sat(a, b));
    o[6] = __half_as_ushort(__hneg(a));
    o[7] = __half_as_ushort(__habs(b));
    o[8] = __half_as_ushort(__hmax(a, b));
    o[9] = __half_as_ushort(__hmin(a, b));
    o[10] = (unsigned short)(__hlt(a, b) | __hge(a, c) << 1 | __heq(b, c) << 2 | __hisnan(a) << 3
                             | __hgtu(a, b) << 4);
    __half2 p = __halves2half2(a, b), q = __halves2half2(c, a);
    __half2 s = __hfma2(p, q, __hadd2(p, q));
    o[11] = __half_as_ushort(__low2half(s));
    o[12] = __half_as_ushort(__high2half(s));
    __half2 m = __hmul2(__lowhigh2highlow(p), __hneg2(q));
    o[13] = __half_as_ushort(__low2half(m));
    o[14] = __half_as_ushort(__high2half(m));
    float fa = __half2float(a), fb = __high2float(p);
    o[15] = __half_as_ushort(__float2half_rz(fa * 3.0f + fb));
    o[16] = __half_as_ushort(__float2half_rd(fa / 3.0f));
    o[17] = __half_as_ushort(__float2half_ru(fa / 3.0f));
    __half2 f2 = __floats2half2_rn(fa * 0.1f, fb - 1.0f);
    o[18] = __half_as_ushort(__low2half(f2));
    o[19] = __half_as_ushort(__high2half(f2));
    o[20] = (unsigned short)__half2int_rn(a);
    o[21] = (unsigned short)__half2short_rz(b);
    o[22] = __half_as_ushort(__int2half_rn(t * 1001 - 30000));
    o[23] = (unsigned short)__half2uint_ru(c);
}

#define NB 8 // results per thread of bf16_ops

extern "C" __global__ void bf16_ops(const float *fa, const float *fb, unsigned short *out, int n)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= n) return;
    __nv_bfloat16 a = __float2bfloat16(fa[t]), b = __float2bfloat16_rz(fb[t]);
    unsigned short *o = out + NB * t;
    o[0] = __bfloat16_as_ushort(a);
    o[1] = __bfloat16_as_ushort(b);
    o[2] = __bfloat16_as_ushort(__hadd(a, b));
    o[3] = __bfloat16_as_ushort(__hmul(a, b));
    o[4] = __bfloat16_as_ushort(__hsub(a, b));
    __nv_bfloat162 v = __floats2bfloat162_rn(fa[t], fb[t] * 2.0f);
    o[5] = __bfloat16_as_ushort(__low2bfloat16(v));
    o[6] = __bfloat16_as_ushort(__high2bfloat16(v));
    o[7] = (unsigned short)__float2int_rn(__bfloat162float(a) * 4.0f);
}
