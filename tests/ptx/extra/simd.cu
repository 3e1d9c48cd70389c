// CUDA SIMD-within-a-word intrinsics (bytes and half-words: absolute differences, sums of
// absolute differences, saturating add/sub, averages, comparisons, min/max, abs/neg) and __fns.
// On sm_75 nvcc emits vabsdiff4/vabsdiff2 (with .add for the sums) for a few of them and
// integer/prmt sequences for the rest.
#define NS 18 // results per thread

extern "C" __global__ void simd_ops(const unsigned *ua, const unsigned *ub, unsigned *out, int n)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= n) return;
    unsigned a = ua[t], b = ub[t];
    unsigned *o = out + NS * t;
    o[0] = __vabsdiffu4(a, b);
    o[1] = __vabsdiffu2(a, b);
    o[2] = __vabsdiffs4(a, b);
    o[3] = __vsadu4(a, b);
    o[4] = __vsadu2(a, b);
    o[5] = __vsads4(a, b);
    o[6] = __vadd4(a, b);
    o[7] = __vsubss4(a, b);
    o[8] = __vaddus2(a, b);
    o[9] = __vavgu4(a, b);
    o[10] = __vhaddu2(a, b);
    o[11] = __vcmpgtu4(a, b);
    o[12] = __vsetles4(a, b);
    o[13] = __vmaxs2(a, b);
    o[14] = __vminu4(a, b);
    o[15] = __vabsss4(a);
    o[16] = __vnegss2(b);
    o[17] = __fns(a, b & 31, (int)(b >> 27) - 16);
}
