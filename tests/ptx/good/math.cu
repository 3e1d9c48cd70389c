// Single and double precision math library calls, fast intrinsics, and conversions.
#include <cuda_fp16.h>
extern "C" __global__ void math_f32(const float *x, float *y, int n) {
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= n) return;
    float a = x[t];
    float r = expf(a) + logf(fabsf(a) + 1.f) + powf(a, 2.5f) + sinf(a) + cosf(a) + sqrtf(fabsf(a))
            + rsqrtf(fabsf(a) + 1.f) + fmaf(a, 2.f, 1.f) + erff(a) + tanhf(a) + atan2f(a, 1.f)
            + __expf(a) + __logf(fabsf(a) + 2.f) + __sinf(a) + __fdividef(a, 3.f) + floorf(a)
            + ceilf(a) + truncf(a) + roundf(a) + fminf(a, 1.f) + fmaxf(a, -1.f) + a / (a + 7.f)
            + exp2f(a) + log2f(fabsf(a) + 1.f) + copysignf(1.f, a) + (isnan(a) ? 1.f : 0.f)
            + (isinf(a) ? 2.f : 0.f) + tanf(a) + log10f(fabsf(a) + 1.f);
    y[t] = r;
}
extern "C" __global__ void math_f64(const double *x, double *y, int n) {
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= n) return;
    double a = x[t];
    y[t] = exp(a) + log(fabs(a) + 1.0) + sqrt(fabs(a)) + sin(a) + fma(a, 2.0, 1.0) + a / 3.0
         + floor(a) + rsqrt(fabs(a) + 1.0) + pow(a, 3.0) + fmin(a, 0.5);
}
extern "C" __global__ void convert(const float *x, const double *dx, int *i, unsigned *u,
                                   long long *ll, __half *h, float *f, unsigned char *uc,
                                   short *s, int n) {
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= n) return;
    float a = x[t];
    double d = dx[t];
    i[t] = (int)a + __float2int_rn(a) + (int)d + __double2int_rz(d);
    u[t] = (unsigned)a + __float2uint_ru(a);
    ll[t] = (long long)d + __float2ll_rd(a);
    __half hv = __float2half(a);
    __half2 h2 = __floats2half2_rn(a, a * 2.f);
    h2 = __hadd2(h2, h2);
    hv = __hmul(hv, __low2half(h2));
    h[t] = hv;
    f[t] = __half2float(hv) + (float)d + __int2float_rn(t) + (float)(unsigned)t + __high2float(h2);
    uc[t] = (unsigned char)(a * 3.f);
    s[t] = (short)(d);
}
