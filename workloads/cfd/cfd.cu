// SPDX-License-Identifier: MIT
// cfd.cu - a finite-volume Euler solver on an unstructured mesh (CFD-like).
//
// State per element (structure of arrays, var[v*nel + i]): density, momentum x/y/z, total energy.
// Every element has CFD_NNB faces; face j has an area-weighted outward normal
// nrm[(j*3 + k)*nel + i] and a neighbour nbr[j*nel + i] (an element index, CFD_WALL for a slip
// wall, CFD_FARFIELD for the free stream held in constant memory). One time step is
//   cfd_copy (old = var), cfd_step_factor (local time step), then CFD_RK stages of
//   cfd_flux (residual R(var)) and cfd_time_step (var = old + step / (CFD_RK - stage) * R).
// cfd_flux is the heavy kernel: per face it gathers the neighbour's five variables from an
// irregular address, derives velocity, pressure and sound speed on both sides and accumulates the
// Rusanov (local Lax-Friedrichs) flux
//   R -= 0.5 (F(U_i) + F(U_j)) . n - 0.5 lambda |n| (U_j - U_i),  lambda = max(|u| + c).
// At a wall only the pressure acts: R_momentum -= p_i n. Every kernel writes arrays it does not
// read, so all of them are idempotent.

#define CFD_NNB 4
#define CFD_NVAR 5
#define CFD_RK 3
#define CFD_GAMMA 1.4f
#define CFD_CFL 0.4f
#define CFD_WALL (-1)
#define CFD_FARFIELD (-2)

__constant__ float cfd_ff[CFD_NVAR];

struct cfd_state {
    float rho, mx, my, mz, e;
    float ux, uy, uz, p, c;
};

__device__ static void cfd_derive(cfd_state &s)
{
    s.ux = s.mx / s.rho;
    s.uy = s.my / s.rho;
    s.uz = s.mz / s.rho;
    float speed2 = s.ux * s.ux + s.uy * s.uy + s.uz * s.uz;
    s.p = (CFD_GAMMA - 1.0f) * (s.e - 0.5f * s.rho * speed2);
    s.c = sqrtf(CFD_GAMMA * s.p / s.rho);
}

__device__ static cfd_state cfd_load(const float *__restrict__ var, int i, int nel)
{
    cfd_state s;
    s.rho = var[0 * nel + i];
    s.mx = var[1 * nel + i];
    s.my = var[2 * nel + i];
    s.mz = var[3 * nel + i];
    s.e = var[4 * nel + i];
    cfd_derive(s);
    return s;
}

extern "C" __global__ void cfd_copy(const float *__restrict__ var, float *__restrict__ old, int nel)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= nel)
        return;
    for (int v = 0; v < CFD_NVAR; v++)
        old[v * nel + i] = var[v * nel + i];
}

extern "C" __global__ void cfd_step_factor(const float *__restrict__ var,
                                           const float *__restrict__ area,
                                           float *__restrict__ step, int nel)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= nel)
        return;
    cfd_state s = cfd_load(var, i, nel);
    float speed = sqrtf(s.ux * s.ux + s.uy * s.uy + s.uz * s.uz);
    step[i] = CFD_CFL / (sqrtf(area[i]) * (speed + s.c));
}

extern "C" __global__ void cfd_flux(const float *__restrict__ var, const int *__restrict__ nbr,
                                    const float *__restrict__ nrm, float *__restrict__ flux,
                                    int nel)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= nel)
        return;
    cfd_state a = cfd_load(var, i, nel);
    float lam_a = sqrtf(a.ux * a.ux + a.uy * a.uy + a.uz * a.uz) + a.c;
    float r0 = 0.0f, r1 = 0.0f, r2 = 0.0f, r3 = 0.0f, r4 = 0.0f;

#pragma unroll 1
    for (int j = 0; j < CFD_NNB; j++) {
        int nb = nbr[j * nel + i];
        float nx = nrm[(j * 3 + 0) * nel + i];
        float ny = nrm[(j * 3 + 1) * nel + i];
        float nz = nrm[(j * 3 + 2) * nel + i];
        if (nb == CFD_WALL) {
            r1 -= a.p * nx;
            r2 -= a.p * ny;
            r3 -= a.p * nz;
            continue;
        }
        cfd_state b;
        if (nb >= 0) {
            b = cfd_load(var, nb, nel);
        } else {
            b.rho = cfd_ff[0];
            b.mx = cfd_ff[1];
            b.my = cfd_ff[2];
            b.mz = cfd_ff[3];
            b.e = cfd_ff[4];
            cfd_derive(b);
        }
        float nlen = sqrtf(nx * nx + ny * ny + nz * nz);
        float lam_b = sqrtf(b.ux * b.ux + b.uy * b.uy + b.uz * b.uz) + b.c;
        float diss = 0.5f * fmaxf(lam_a, lam_b) * nlen;
        float una = a.ux * nx + a.uy * ny + a.uz * nz;
        float unb = b.ux * nx + b.uy * ny + b.uz * nz;
        r0 += -0.5f * (a.rho * una + b.rho * unb) + diss * (b.rho - a.rho);
        r1 += -0.5f * (a.mx * una + a.p * nx + b.mx * unb + b.p * nx) + diss * (b.mx - a.mx);
        r2 += -0.5f * (a.my * una + a.p * ny + b.my * unb + b.p * ny) + diss * (b.my - a.my);
        r3 += -0.5f * (a.mz * una + a.p * nz + b.mz * unb + b.p * nz) + diss * (b.mz - a.mz);
        r4 += -0.5f * ((a.e + a.p) * una + (b.e + b.p) * unb) + diss * (b.e - a.e);
    }
    flux[0 * nel + i] = r0;
    flux[1 * nel + i] = r1;
    flux[2 * nel + i] = r2;
    flux[3 * nel + i] = r3;
    flux[4 * nel + i] = r4;
}

extern "C" __global__ void cfd_time_step(const float *__restrict__ old, float *__restrict__ var,
                                         const float *__restrict__ flux,
                                         const float *__restrict__ step, int stage, int nel)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= nel)
        return;
    float f = step[i] / (float)(CFD_RK - stage);
    for (int v = 0; v < CFD_NVAR; v++)
        var[v * nel + i] = old[v * nel + i] + f * flux[v * nel + i];
}
