// SPDX-License-Identifier: MIT
// srad.cu - speckle-reducing anisotropic diffusion (Yu and Acton, 2002) of an image J > 0, one
// explicit time step per pair of launches. Pixels outside the image replicate the nearest edge
// pixel.
//
// srad_coeff: for each pixel, the four one-sided differences dN = J[i-1][j] - J, dS, dW, dE, the
// normalised gradient magnitude G2 = (dN^2 + dS^2 + dW^2 + dE^2) / J^2 and Laplacian
// L = (dN + dS + dW + dE) / J give the instantaneous coefficient of variation
//   q^2 = (G2/2 - L^2/16) / (1 + L/4)^2,
// and the diffusion coefficient c = 1 / (1 + (q^2 - q0^2) / (q0^2 (1 + q0^2))), clamped to [0, 1]
// (q0^2, the speckle scale, comes from the host). The CTA stages its 16x16 tile of J plus a
// one-pixel halo in shared memory (edge threads load the halo: divergent loads). It writes the
// four differences and c; it only reads J, so it is idempotent.
//
// srad_update: the divergence D = c[i][j] dN + c[i+1][j] dS + c[i][j] dW + c[i][j+1] dE and the
// step J += lambda/4 * D. The tile of c plus its south and east halo sit in shared memory. J is
// updated in place, so this kernel is NOT idempotent.

#define HD_SR_TILE 16

extern "C" __global__ void srad_coeff(const float *__restrict__ img, float *__restrict__ d_n,
                                      float *__restrict__ d_s, float *__restrict__ d_w,
                                      float *__restrict__ d_e, float *__restrict__ coeff, int rows,
                                      int cols, float q0sqr)
{
    __shared__ float js[HD_SR_TILE + 2][HD_SR_TILE + 2];

    int tx = threadIdx.x, ty = threadIdx.y;
    int gx = blockIdx.x * HD_SR_TILE + tx, gy = blockIdx.y * HD_SR_TILE + ty;
    int cx = min(gx, cols - 1), cy = min(gy, rows - 1);   // threads past the edge replicate it

    js[ty + 1][tx + 1] = img[cy * cols + cx];
    if (ty == 0)
        js[0][tx + 1] = img[max(cy - 1, 0) * cols + cx];
    if (ty == HD_SR_TILE - 1)
        js[HD_SR_TILE + 1][tx + 1] = img[min(cy + 1, rows - 1) * cols + cx];
    if (tx == 0)
        js[ty + 1][0] = img[cy * cols + max(cx - 1, 0)];
    if (tx == HD_SR_TILE - 1)
        js[ty + 1][HD_SR_TILE + 1] = img[cy * cols + min(cx + 1, cols - 1)];
    __syncthreads();

    if (gx >= cols || gy >= rows)
        return;

    float j = js[ty + 1][tx + 1];
    float dn = js[ty][tx + 1] - j;
    float ds = js[ty + 2][tx + 1] - j;
    float dw = js[ty + 1][tx] - j;
    float de = js[ty + 1][tx + 2] - j;

    float g2 = (dn * dn + ds * ds + dw * dw + de * de) / (j * j);
    float l = (dn + ds + dw + de) / j;
    float num = 0.5f * g2 - 0.0625f * (l * l);
    float den = 1.0f + 0.25f * l;
    float qsqr = num / (den * den);
    float c = 1.0f / (1.0f + (qsqr - q0sqr) / (q0sqr * (1.0f + q0sqr)));
    c = fminf(fmaxf(c, 0.0f), 1.0f);

    int k = gy * cols + gx;
    d_n[k] = dn;
    d_s[k] = ds;
    d_w[k] = dw;
    d_e[k] = de;
    coeff[k] = c;
}

extern "C" __global__ void srad_update(float *img, const float *__restrict__ d_n,
                                       const float *__restrict__ d_s, const float *__restrict__ d_w,
                                       const float *__restrict__ d_e,
                                       const float *__restrict__ coeff, int rows, int cols,
                                       float lambda)
{
    __shared__ float cs[HD_SR_TILE + 1][HD_SR_TILE + 1];

    int tx = threadIdx.x, ty = threadIdx.y;
    int gx = blockIdx.x * HD_SR_TILE + tx, gy = blockIdx.y * HD_SR_TILE + ty;
    int cx = min(gx, cols - 1), cy = min(gy, rows - 1);

    cs[ty][tx] = coeff[cy * cols + cx];
    if (ty == HD_SR_TILE - 1)
        cs[HD_SR_TILE][tx] = coeff[min(cy + 1, rows - 1) * cols + cx];
    if (tx == HD_SR_TILE - 1)
        cs[ty][HD_SR_TILE] = coeff[cy * cols + min(cx + 1, cols - 1)];
    __syncthreads();

    if (gx >= cols || gy >= rows)
        return;

    int k = gy * cols + gx;
    float c = cs[ty][tx];
    float div = c * d_n[k] + cs[ty + 1][tx] * d_s[k] + c * d_w[k] + cs[ty][tx + 1] * d_e[k];
    img[k] = img[k] + 0.25f * lambda * div;
}
