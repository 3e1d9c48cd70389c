// Nested __noinline__ device functions (three levels) passing and returning structs by value:
// small vectors, a matrix of them, a mixed-type struct with arrays and padding, plus a
// divergent call site (only some lanes call) and a call inside a loop.
struct Vec3 { float x, y, z; };
struct Mat3 { Vec3 r[3]; int tag; };
struct Rec { double d[2]; int i[3]; char c; short s; long long l; };

__device__ __noinline__ Vec3 add3(Vec3 a, Vec3 b) { return {a.x + b.x, a.y + b.y, a.z + b.z}; }
__device__ __noinline__ float dot3(Vec3 a, Vec3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
__device__ __noinline__ Vec3 mulmv(Mat3 m, Vec3 v)
{
    return {dot3(m.r[0], v), dot3(m.r[1], v), dot3(m.r[2], v) + (float)m.tag};
}
__device__ __noinline__ Rec fold(Rec r, int k)
{
    Rec o = r;
    o.d[0] = r.d[0] * k + r.d[1];
    o.d[1] = r.d[1] - k;
    for (int j = 0; j < 3; j++) o.i[j] = r.i[(j + k) % 3] * (j + 1);
    o.c = (char)(r.c + k);
    o.s = (short)(r.s * -3);
    o.l = r.l * k + r.i[0];
    return o;
}
__device__ __noinline__ long long level3(Rec r, int k)
{
    Rec f = fold(r, k);
    return (long long)f.d[0] + (long long)f.d[1] * 100 + f.i[0] + f.i[1] * 7 + f.i[2] * 49 + f.c +
           f.s + f.l;
}
__device__ __noinline__ long long level2(Rec r, int k) { return level3(r, k) - level3(r, k + 1); }
__device__ __noinline__ long long level1(Rec r, int k, Vec3 v, Mat3 m)
{
    Vec3 w = add3(mulmv(m, v), v);
    return level2(r, k) * 3 + (long long)(w.x + 2.0f * w.y + 4.0f * w.z);
}

extern "C" __global__ void nested_calls(const Rec *recs, const Vec3 *vs, Mat3 m, long long *out,
                                        int n)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= n) return;
    long long acc = level1(recs[t], t % 5, vs[t], m);
    if (t & 1) acc += level3(recs[n - 1 - t], 2); // only odd lanes call
    for (int j = 0; j < (t & 3); j++) {
        Vec3 u = mulmv(m, vs[j]);
        acc += (long long)dot3(u, u);
    }
    out[t] = acc;
}
