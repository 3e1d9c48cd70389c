// SPDX-License-Identifier: MIT
// backprop.cu - one training step of a two-layer perceptron: forward pass of the input layer into
// the hidden layer, and the weight adjustment of the input->hidden weights.
//
// Layout: the weights w[i*HD_BP_HIDDEN + j] connect input unit i to hidden unit j. A CTA is a 16x16
// tile: ty selects one of 16 consecutive input units, tx one of the 16 hidden units.
//
// bp_layer_forward: each CTA multiplies its 16 inputs by their 16x16 weights into shared memory and
// reduces the products over the input dimension with a 4-step tree (log2 of the tile; a barrier
// per step), writing one partial sum per hidden unit and CTA. The host adds the partials of all
// CTAs and applies the sigmoid. The weights are only read, so this kernel is idempotent.
//
// bp_adjust_weights: classical gradient step with momentum,
//   dw = eta * delta[j] * x[i] + momentum * dw_old;  w += dw;  dw_old = dw,
// updating both arrays in place (so NOT idempotent: re-running a CTA applies the step twice).
//
// Resource-specification variants (ptx.flags, README): HD_BP_TILE, the input units per CTA (a
// power of two, 4 to 64), gives 16 x HD_BP_TILE threads per CTA (64 to 1024) and scales the shared
// memory and the depth of the reduction tree.

#define HD_BP_HIDDEN 16
#ifndef HD_BP_TILE
#define HD_BP_TILE 16
#endif

extern "C" __global__ void bp_layer_forward(const float *__restrict__ x, const float *__restrict__ w,
                                            float *__restrict__ partial, int n_in)
{
    __shared__ float xs[HD_BP_TILE];
    __shared__ float prod[HD_BP_TILE][HD_BP_HIDDEN];

    int tx = threadIdx.x;                      // hidden unit
    int ty = threadIdx.y;                      // input unit within the tile
    int i = blockIdx.y * HD_BP_TILE + ty;      // global input unit

    if (tx == 0)
        xs[ty] = (i < n_in) ? x[i] : 0.0f;
    __syncthreads();

    prod[ty][tx] = (i < n_in) ? w[i * HD_BP_HIDDEN + tx] * xs[ty] : 0.0f;
    __syncthreads();

    // Tree reduction over the input dimension: 16 -> 8 -> 4 -> 2 -> 1.
    for (int s = HD_BP_TILE / 2; s > 0; s >>= 1) {
        if (ty < s)
            prod[ty][tx] += prod[ty + s][tx];
        __syncthreads();
    }

    if (ty == 0)
        partial[blockIdx.y * HD_BP_HIDDEN + tx] = prod[0][tx];
}

extern "C" __global__ void bp_adjust_weights(const float *__restrict__ x,
                                             const float *__restrict__ delta, float *w,
                                             float *dw_old, int n_in, float eta, float momentum)
{
    int tx = threadIdx.x;
    int i = blockIdx.y * HD_BP_TILE + threadIdx.y;
    if (i >= n_in)
        return;
    int k = i * HD_BP_HIDDEN + tx;
    float dw = eta * delta[tx] * x[i] + momentum * dw_old[k];
    w[k] += dw;
    dw_old[k] = dw;
}

#ifdef BP_RODINIA
// bp_layer_forward_rod (variant backprop_rod_ccbp; issue 29, docs/blocks/ccbp.md "Session 21"):
// the forward kernel in the form Lin's BP_1 ran on GPGPU-Sim, Rodinia's layerforward. The same
// products and tree reduction as bp_layer_forward, with three differences of that form:
// - the weights are an (n_in + 1) x (hid + 1) array whose row 0 and column 0 are the bias terms,
//   so a 16-float row starts one float past a 17-float stride: a warp's two rows span two 128 B
//   lines, not one; the inputs likewise start at x[1];
// - the tree steps are counted at run time: step i (1, 2, ...) while i <= log2(tile) in float,
//   with the stride 2^i from the fast power and the test ty % 2^i, pairs (0,1), (2,3), ... first;
// - after the tree each thread writes its shared value back over the weight it read (in place:
//   every weight line is written after it is read, so the L2 sees as many writes as reads).
// Not idempotent (the weights are overwritten), like backprop itself.
extern "C" __global__ void bp_layer_forward_rod(const float *x, float *w, float *partial, int hid)
{
    __shared__ float xs[HD_BP_TILE];
    __shared__ float prod[HD_BP_TILE][HD_BP_HIDDEN];

    int by = blockIdx.y;
    int tx = threadIdx.x;
    int ty = threadIdx.y;
    int k = (hid + 1) * HD_BP_TILE * by + (hid + 1) * ty + tx + 1 + (hid + 1);

    if (tx == 0)
        xs[ty] = x[HD_BP_TILE * by + ty + 1];
    __syncthreads();
    prod[ty][tx] = w[k];
    __syncthreads();
    prod[ty][tx] = prod[ty][tx] * xs[ty];
    __syncthreads();
    for (int i = 1; i <= __log2f((float)HD_BP_TILE); i++) {
        int stride = (int)__powf(2.0f, (float)i);
        if (ty % stride == 0)
            prod[ty][tx] = prod[ty][tx] + prod[ty + stride / 2][tx];
        __syncthreads();
    }
    w[k] = prod[ty][tx];
    __syncthreads();
    if (tx == 0)
        partial[by * hid + ty] = prod[tx][ty];
}
#endif
