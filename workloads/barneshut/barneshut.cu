// SPDX-License-Identifier: MIT
// barneshut.cu - the force phase of a Barnes-Hut N-body step: every body walks an octree that the
// host built, approximating far cells by their center of mass.
//
// The tree is stored in depth-first preorder: node k's first child is k + 1, skip[k] is the node
// after k's whole subtree, cm[k] = (center of mass, total mass), open2[k] = (cell width / theta)^2
// and count[k] > 0 marks a leaf holding bodies first[k] .. first[k] + count[k] - 1. The bodies are
// sorted in tree order, so the 32 bodies of a warp are close in space.
//
// One thread per body; the walk is stackless and warp-coherent (the technique of the fast CUDA
// Barnes-Hut codes): at each node every lane tests d2 <= open2[k] ("too close to approximate")
// and the warp votes. If no lane is too close, every lane interacts with the center of mass and
// the warp skips the subtree; otherwise the whole warp descends (an internal cell) or every lane
// interacts with each body of the leaf (except itself). All lanes thus follow one path: the
// control flow is uniform, while the vote makes the amount of work depend on the data (a warp
// whose bodies are spread out opens more cells) and the loads are gathers through the tree.
// A body lies inside a cell only if d2 <= 3 width^2 < open2 (theta < 0.57), so a lane never
// approximates a cell containing itself. Lanes past the last body walk along without voting.
// The arithmetic uses explicit fused multiply-adds and IEEE division and square root so the host
// reference can reproduce it exactly. The kernel only writes its acceleration output: idempotent.

// Knob (Zorua grid points, workloads/zorua-grid.toml): MAXREG caps the registers per thread of
// bh_force (__maxnreg__); undefined in the base, whose PTX it leaves unchanged.
#ifdef MAXREG
#define BH_REGS __maxnreg__(MAXREG)
#else
#define BH_REGS
#endif

__device__ static void bh_interact(float dx, float dy, float dz, float d2, float m, float eps2,
                                   float &ax, float &ay, float &az)
{
    float inv = 1.0f / sqrtf(d2 + eps2);
    float s = m * inv * inv * inv;
    ax = __fmaf_rn(dx, s, ax);
    ay = __fmaf_rn(dy, s, ay);
    az = __fmaf_rn(dz, s, az);
}

extern "C" __global__ void BH_REGS bh_force(const float4 *__restrict__ body, const float4 *__restrict__ cm,
                                    const float *__restrict__ open2, const int *__restrict__ skip,
                                    const int *__restrict__ first, const int *__restrict__ count,
                                    int nnodes, float eps2, float *__restrict__ acc, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    bool valid = i < n;
    float4 p = body[valid ? i : n - 1];
    float ax = 0.0f, ay = 0.0f, az = 0.0f;
    int k = 0;
    while (k < nnodes) {
        float4 c = cm[k];
        float dx = c.x - p.x, dy = c.y - p.y, dz = c.z - p.z;
        float d2 = __fmaf_rn(dz, dz, __fmaf_rn(dy, dy, __fmul_rn(dx, dx)));
        float lim = open2[k]; // the same address for the whole warp
        if (!__any_sync(0xffffffffu, valid && d2 <= lim)) {
            bh_interact(dx, dy, dz, d2, c.w, eps2, ax, ay, az);
            k = skip[k];
        } else if (count[k] > 0) {
            int b0 = first[k], b1 = b0 + count[k];
            for (int j = b0; j < b1; j++) {
                if (j == i)
                    continue;
                float4 q = body[j];
                float ex = q.x - p.x, ey = q.y - p.y, ez = q.z - p.z;
                float e2 = __fmaf_rn(ez, ez, __fmaf_rn(ey, ey, __fmul_rn(ex, ex)));
                bh_interact(ex, ey, ez, e2, q.w, eps2, ax, ay, az);
            }
            k = skip[k];
        } else {
            k++;
        }
    }
    if (valid) {
        acc[3 * i + 0] = ax;
        acc[3 * i + 1] = ay;
        acc[3 * i + 2] = az;
    }
}
