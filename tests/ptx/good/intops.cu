// Integer operations: 64-bit division and modulo, bit intrinsics, byte/short loads,
// long long arithmetic, mul.hi, funnel shifts, byte permute, bit-field extract/insert.
extern "C" __global__ void int_ops(const long long *a, const long long *b, long long *q,
                                   unsigned *bits, const unsigned char *uc,
                                   const unsigned short *us, const signed char *sc, int n) {
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= n) return;
    long long x = a[t], y = b[t] | 1;
    unsigned long long ux = (unsigned long long)x;
    q[4 * t + 0] = x / y;
    q[4 * t + 1] = x % y;
    q[4 * t + 2] = (long long)(ux / (unsigned long long)y) + (long long)(ux % 7ull);
    q[4 * t + 3] = __mul64hi(x, y) + (long long)__umul64hi(ux, 3ull) + (x << (t & 63)) + (x >> 3);
    unsigned v = (unsigned)x;
    int iv = (int)y;
    bits[8 * t + 0] = __popc(v) + __popcll(ux);
    bits[8 * t + 1] = __clz(iv) + __clzll(x);
    bits[8 * t + 2] = __brev(v) ^ (unsigned)__brevll(ux);
    bits[8 * t + 3] = __ffs(iv) + __ffsll(x);
    bits[8 * t + 4] = __funnelshift_l(v, (unsigned)iv, 5) + __funnelshift_rc(v, 7u, (unsigned)t);
    bits[8 * t + 5] = __byte_perm(v, (unsigned)iv, 0x5410) + __umulhi(v, 77u) + (unsigned)__mulhi(iv, -3);
    bits[8 * t + 6] = (v >> 5) & 0x3f | ((v & 0xff) << 20) | (unsigned)(iv / 7) | (v % 13u);
    bits[8 * t + 7] = uc[t] + us[t] + sc[t] + __sad(iv, 5, 1u) + (unsigned)abs(iv) + min(v, 9u) + (unsigned)max(iv, -2);
}
struct Flags { unsigned a : 3; unsigned b : 5; unsigned c : 12; unsigned d : 12; };
extern "C" __global__ void bitfields(Flags *f, unsigned *out, int n) {
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= n) return;
    Flags x = f[t];
    x.b = x.a + x.c;
    x.d ^= x.b;
    f[t] = x;
    out[t] = x.a * x.b + x.c - x.d;
}
