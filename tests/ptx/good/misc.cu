// Miscellaneous: clock, special registers via inline PTX, fences, read-only and streaming
// cache loads/stores, nanosleep, match, volatile globals, early exit, grid-stride loops,
// while loops with break, switch statements.
extern "C" __global__ void misc(const float *__restrict__ ro, float *w, volatile int *flag,
                                long long *times, unsigned *ids, int n) {
    long long t0 = clock64();
    unsigned c0 = clock();
    unsigned smid, warpid, nsmid, lanemask;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(smid));
    asm volatile("mov.u32 %0, %%warpid;" : "=r"(warpid));
    asm volatile("mov.u32 %0, %%nsmid;" : "=r"(nsmid));
    asm volatile("mov.u32 %0, %%lanemask_lt;" : "=r"(lanemask));
    unsigned dsm;
    asm volatile("mov.u32 %0, %%dynamic_smem_size;" : "=r"(dsm));
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        float v = __ldg(&ro[i]) + __ldcs(&ro[(i + 1) % n]) + __ldcg(&ro[(i + 2) % n]);
        __stcs(&w[i], v);
        __stwt(&w[(i + n / 2) % n], v * 2.f);
    }
    __threadfence();
    __threadfence_block();
    __threadfence_system();
    if (threadIdx.x == 0) {
        int spins = 0;
        while (*flag == 0 && spins < 100) { __nanosleep(100); spins++; }
    }
    unsigned mask = __match_any_sync(0xffffffff, (int)(threadIdx.x / 4));
    int pred;
    unsigned allm = __match_all_sync(0xffffffff, (int)(threadIdx.x & 0), &pred);
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    int sel;
    switch (t & 7) {
    case 0: sel = 11; break;
    case 1: sel = 22; break;
    case 2: sel = 37; break;
    case 3: sel = 41; break;
    case 5: sel = 58; break;
    default: sel = -1;
    }
    times[t] = clock64() - t0 + (clock() - c0);
    ids[t] = smid + warpid + nsmid + lanemask + mask + allm + (unsigned)pred + (unsigned)sel + dsm;
    if (t > n) asm("exit;");
    if (t == n + 5) __trap();
}
