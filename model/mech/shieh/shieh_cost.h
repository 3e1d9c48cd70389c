/* SPDX-License-Identifier: MIT
 * shieh_cost.h - preemption cost estimation per running TB (Shieh thesis §3.3.2, L232-236;
 * digest §2.4 and Appendix B): for each technique, the preemption latency (cycles until the TB
 * has left the SM) and the throughput overhead (warp instructions wasted):
 *
 *   flush    L = 0,  O = I(i) (everything it executed is lost); only when its flush bit is set
 *            (relaxed idempotence, §2.7)
 *   switch   L = Ctx_TB / (B / N_SM) (the context over the SM's fair share of the memory
 *            bandwidth, rounded up), O = IPC_avg * 2 * L (save and restore; rounded to nearest)
 *   drain    L = (Ibar - I(i)) * CPI_pred(i) (rounded up; remaining instructions clamped at 0
 *            when the TB has run past the average), O = 0 (the dual-kernel SM keeps dispatching
 *            as space frees)
 *
 * Instructions are counted per warp instruction issued (not per thread). Ibar is the mean
 * instruction count of the kernel's finished TBs; CPI_pred(i) is TB i's own past CPI,
 * (now - issue)/I(i), when the running TBs' CPIs spread less than the finished TBs' (variances
 * compared, which orders standard deviations the same way), else the finished TBs' mean CPI
 * (the lower-variance predictor, L236). IPC_avg is the mean of I(j)/(now - issue(j)) over the
 * SM's running TBs. When the statistics cannot give an estimate (no finished TB; a TB with no
 * instruction yet when its own CPI is to be used) the latency and overhead are HD_SHIEH_INF
 * (L236: "conservatively apply the maximum value"). With fewer than two samples on either side
 * the spreads cannot be compared and the finished TBs' mean is used [implementer choice].
 *
 * Chimera's drain estimate (the baselines, digest §8.2 [R]): L = max(Tbar - (now - issue), 0),
 * Tbar the mean residency of the kernel's finished TBs, without regard to the TB's progress.
 * Everything is computed in double precision in a fixed order, so results are deterministic.
 */
#ifndef HD_SHIEH_COST_H
#define HD_SHIEH_COST_H

#include <stdbool.h>
#include <stdint.h>

#define HD_SHIEH_INF ((uint64_t)UINT32_MAX) /* "cannot be estimated": the saturating maximum */

enum hd_shieh_tech { HD_SHIEH_DRAIN = 0, HD_SHIEH_FLUSH = 1, HD_SHIEH_SWITCH = 2, HD_SHIEH_NTECH = 3 };

/* Finished-TB statistics of one kernel (the kstats block of digest §3.5). */
struct hd_shieh_kstats {
    uint64_t n;
    double sum_instr, sum_cycles;
    double sum_cpi, sum_cpi2; /* of the TBs with at least one instruction */
    uint64_t n_cpi;
};

void hd_shieh_kstats_add(struct hd_shieh_kstats *k, uint64_t instrs, uint64_t cycles);

/* A running TB as the Running TB Status table reports it. */
struct hd_shieh_tb {
    bool valid;
    bool flushable;
    uint64_t instrs; /* warp instructions executed */
    uint64_t issue;  /* cycle it was placed */
};

/* The SM-wide predictor state of one estimation round. */
struct hd_shieh_pred {
    bool have_fin;         /* a finished TB exists: Ibar and the finished CPI are known */
    double ibar;           /* mean instructions per finished TB */
    double cpi_fin;        /* mean CPI of the finished TBs */
    double var_fin, var_run;
    bool use_own;          /* CPI_pred = the TB's own past CPI (else cpi_fin) */
    double ipc_avg;        /* mean IPC of the running TBs */
    double tbar;           /* mean residency of the finished TBs (Chimera) */
};

/* Fill *p from the kernel's finished TBs and the ntbs slots of the SM at cycle now. */
void hd_shieh_predict(const struct hd_shieh_kstats *k, const struct hd_shieh_tb *tbs, unsigned ntbs,
                      uint64_t now, struct hd_shieh_pred *p);

/* Switch latency: ceil(ctx_bytes / bytes_per_cycle) (bytes_per_cycle: the SM's share). */
uint64_t hd_shieh_switch_latency(uint64_t ctx_bytes, double bytes_per_cycle);

/* One TB's cost per technique; allowed[FLUSH] follows the flush bit (the others always). */
struct hd_shieh_cost {
    uint64_t lat[HD_SHIEH_NTECH];
    uint64_t ovh[HD_SHIEH_NTECH];
    bool allowed[HD_SHIEH_NTECH];
};

/* Shieh's estimate for TB t (l_cs from hd_shieh_switch_latency). */
void hd_shieh_cost_tb(const struct hd_shieh_pred *p, const struct hd_shieh_tb *t, uint64_t now,
                      uint64_t l_cs, struct hd_shieh_cost *c);
/* Drain latency alone, Shieh's estimator / Chimera's (for Chimera+ / Chimera and reports). */
uint64_t hd_shieh_drain_latency(const struct hd_shieh_pred *p, const struct hd_shieh_tb *t,
                                uint64_t now);
uint64_t hd_chimera_drain_latency(const struct hd_shieh_pred *p, const struct hd_shieh_tb *t,
                                  uint64_t now);

#endif
