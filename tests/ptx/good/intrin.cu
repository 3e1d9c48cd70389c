// Integer and floating-point intrinsics whose exact results the CUDA math API defines:
// 24-bit and high-half multiplies, funnel shifts (wrap and clamp), byte permute (with sign
// replication), sums of absolute differences, halving adds, bit counts; float division and
// saturation fast paths, operations with explicit rounding (_rn/_rz/_ru/_rd), float-to-int
// conversions of every rounding and width, double bit splitting (__double2hiint ...).

#define NI 24 // results per thread of int_intrin
#define NL 6  // 64-bit results per thread of int_intrin

extern "C" __global__ void int_intrin(const unsigned *ua, const unsigned *ub,
                                      const unsigned long long *la, unsigned *out,
                                      unsigned long long *out64, int n)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= n) return;
    unsigned a = ua[t], b = ub[t];
    int sa = (int)a, sb = (int)b;
    unsigned *o = out + NI * t;
    o[0] = (unsigned)__mul24(sa, sb);
    o[1] = __umul24(a, b);
    o[2] = __umulhi(a, b);
    o[3] = (unsigned)__mulhi(sa, sb);
    o[4] = __funnelshift_l(a, b, (unsigned)t * 5u);
    o[5] = __funnelshift_lc(a, b, (unsigned)t * 5u);
    o[6] = __funnelshift_r(a, b, (unsigned)t * 5u);
    o[7] = __funnelshift_rc(a, b, (unsigned)t * 5u);
    o[8] = __byte_perm(a, b, b >> 7);
    o[9] = __byte_perm(a, b, 0x3210u + (unsigned)t);
    o[10] = __sad(sa, sb, a >> 12);
    o[11] = __usad(a, b, 7u);
    o[12] = __brev(a);
    o[13] = (unsigned)__clz(sa);
    o[14] = (unsigned)__ffs(sb);
    o[15] = (unsigned)__popc(a);
    o[16] = (unsigned)__hadd(sa, sb);
    o[17] = (unsigned)__rhadd(sa, sb);
    o[18] = __uhadd(a, b);
    o[19] = __urhadd(a, b);
    o[20] = (unsigned)__mul24(sa, 7) + __umul24(b, 0x1000001u);
    o[21] = (unsigned)(sa >> (t & 31)) ^ (b >> (t & 31));
    o[22] = (unsigned)min(sa, sb) + max(a, b);
    o[23] = (unsigned)abs(sa);
    unsigned long long x = la[2 * t], y = la[2 * t + 1];
    unsigned long long *o64 = out64 + NL * t;
    o64[0] = (unsigned long long)__mul64hi((long long)x, (long long)y);
    o64[1] = __umul64hi(x, y);
    o64[2] = __brevll(x);
    o64[3] = (unsigned long long)(__popcll(x) + 64 * __clzll((long long)y) + 4096 * __ffsll((long long)x));
    o64[4] = (unsigned long long)((long long)x / ((long long)y | 1)) ^ (x % (y | 1));
    o64[5] = x * y + (x >> 17) + ((long long)y >> 40);
}

#define NF 14 // float results per thread of float_intrin
#define NN 12 // integer results per thread
#define ND 8  // double results per thread

extern "C" __global__ void float_intrin(const float *fa, const float *fb, const double *da,
                                        float *of, long long *oi, double *od, int n)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= n) return;
    float a = fa[t], b = fb[t];
    double d = da[t];
    float *f = of + NF * t;
    f[0] = __fdividef(a, b);
    f[1] = __saturatef(a);
    f[2] = __fadd_rz(a, b);
    f[3] = __fadd_ru(a, b);
    f[4] = __fmul_rd(a, b);
    f[5] = __fmul_ru(a, b);
    f[6] = __fmaf_rz(a, b, 1.0f);
    f[7] = __frcp_rn(b);
    f[8] = __fsqrt_rn(fabsf(a));
    f[9] = __fdiv_rn(a, b);
    f[10] = __fdiv_rz(a, b);
    f[11] = __double2float_rd(d);
    f[12] = __double2float_ru(d);
    f[13] = __int2float_rz((int)(a * 1000000.0f)) + __uint2float_rd(0xffffff81u + (unsigned)t);
    long long *i = oi + NN * t;
    i[0] = __float2int_rn(a);
    i[1] = __float2int_rz(a);
    i[2] = __float2int_ru(a);
    i[3] = __float2int_rd(a);
    i[4] = __float2uint_rn(a);
    i[5] = __float2uint_rz(b);
    i[6] = __float2ll_rn(a * 1e10f);
    i[7] = (long long)__float2ull_ru(b * 4.0f);
    i[8] = __double2hiint(d);
    i[9] = __double2loint(d);
    i[10] = __double2int_rd(d);
    i[11] = __double2ll_ru(d * 1e9);
    double *r = od + ND * t;
    r[0] = __hiloint2double(__double2loint(d), __double2hiint(d));
    r[1] = __dadd_rz(d, (double)a);
    r[2] = __dmul_ru(d, (double)b);
    r[3] = __ddiv_rd(d, (double)b);
    r[4] = __drcp_rn(d);
    r[5] = __dsqrt_ru(fabs(d));
    r[6] = __fma_rz(d, d, -1.0);
    r[7] = __ll2double_rn(__double2ll_rz(d * 1e18)) + __longlong_as_double(__double_as_longlong(d) ^ (1ull << 63));
}
