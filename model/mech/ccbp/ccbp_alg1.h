/* SPDX-License-Identifier: MIT
 * ccbp_alg1.h - Lin thesis ch.4 Algorithm 1 (§4.5.2; digest §2.17): the DRF-based choice of a
 * CTA combination and a NoC / DRAM bandwidth partition for K co-running kernels, and the
 * conversion of a bandwidth share into an issue-rate quota (§4.5.3, lost: our cost model).
 *
 * Design: a pure function over a profile (struct ccbp_prof): per kernel its class (LS / NBI /
 * DBI, §2.15), nbw[k][n] and dbw[k][n] (NoC and DRAM use, in percent of peak, when it runs n
 * CTAs per SM, n = 1..nmax; index 0 is 0: no CTA, no traffic), req[k][n] and rep[k][n] (each
 * crossbar's use in percent of that crossbar's peak; the profile's nbw curve when it gives
 * none) and its per-CTA static demand.
 * The lost pieces are chosen here and documented in docs/blocks/ccbp.md:
 *   shares      the allocation carries per kernel its share of the request crossbar, of the
 *               reply crossbar, of DRAM, and NBW (its noc_dir measure). The stepped (own)
 *               share: NBI its NBW, DBI its DBW; each other share = own x that resource's
 *               curve / the own curve at the new CTAs (its curve when the own curve is 0
 *               there); LS: every share from the curves.
 *   CanAlloc    tmpCTA[k] <= nmax[k]; sum over kernels of CTA x per-CTA demand fits the SM
 *               (threads, registers, shared memory, CTA slots); per crossbar (Lin T4.1: two
 *               crossbars, the 60 % sustainable share is each one's) sum of its shares <=
 *               noc_sustain x 100, and sum DBW <= dram_sustain x 100 (LS kernels count with
 *               their profiled use). Session 26; before it one sum of NBW (of different
 *               crossbars when the kernels' noc_dir differ) against one noc_sustain x 100.
 *   DomShareCal LS: max over static resources of CTA x demand / capacity, divided by priorLSK;
 *               NBI: NBW / (noc_sustain x 100); DBI: DBW / (dram_sustain x 100).
 *   steps       the "+1" of lines 9 and 16 is one percentage point of peak bandwidth.
 *   line 14/21  when the profiled use at tmpCTA is 0 the other resources are taken as profiled.
 * Ties of argmin go to the lower kernel index (deterministic).
 */
#ifndef HD_CCBP_ALG1_H
#define HD_CCBP_ALG1_H

#include <stdint.h>

#define CCBP_APPS 4     /* co-running applications (launch hints 1..4) */
#define CCBP_NMAX 32    /* CTAs per SM (Lin T4.1: 32 CTA slots) */

enum ccbp_type { CCBP_LS = 0, CCBP_NBI, CCBP_DBI };

/* The NoC measure of an application's nbw curve and cost_noc (the profile's noc_dir): both
 * crossbars together (flits in both directions over the ports of both), or one crossbar, the
 * request one (SM to L2, its L2-side ports) or the reply one (L2 to SM, its SM-side ports). */
enum ccbp_noc_dir { CCBP_NOC_BOTH = 0, CCBP_NOC_REQ, CCBP_NOC_REP };

struct ccbp_prof {
    unsigned k;                          /* applications */
    uint8_t type[CCBP_APPS];             /* enum ccbp_type */
    unsigned nmax[CCBP_APPS];            /* CTAs per SM it can use alone (curves' length) */
    uint8_t noc_dir[CCBP_APPS];          /* enum ccbp_noc_dir: what nbw and cost_noc measure */
    double nbw[CCBP_APPS][CCBP_NMAX + 1]; /* percent of peak NoC bandwidth at n CTAs per SM */
    double dbw[CCBP_APPS][CCBP_NMAX + 1]; /* percent of peak DRAM bandwidth */
    double req[CCBP_APPS][CCBP_NMAX + 1]; /* percent of the request crossbar's peak */
    double rep[CCBP_APPS][CCBP_NMAX + 1]; /* percent of the reply crossbar's peak */
    double cost_noc[CCBP_APPS];          /* NoC flits (of noc_dir) per L1D-miss request */
    double cost_dram[CCBP_APPS];         /* DRAM data cycles per request */
    /* per-CTA static demand (0: unknown; CanAlloc then uses CTA / nmax as the share) */
    uint32_t threads[CCBP_APPS], regs[CCBP_APPS], smem[CCBP_APPS];
};

struct ccbp_caps {                       /* one SM, and the sustainable bandwidth shares */
    uint32_t threads, regs, smem, ctas;
    double noc_sustain, dram_sustain;    /* fractions of peak */
    double prior_ls;                     /* priorLSK */
};

struct ccbp_alloc {
    unsigned cta[CCBP_APPS];
    double nbw[CCBP_APPS], dbw[CCBP_APPS]; /* percent of peak (NBW: the noc_dir measure) */
    double req[CCBP_APPS], rep[CCBP_APPS]; /* percent of each crossbar's peak */
    double dom[CCBP_APPS];
    unsigned steps;                      /* iterations of the while loop */
};

/* Algorithm 1 over profile p on an SM of capacity c: *out. */
void ccbp_alg1(const struct ccbp_prof *p, const struct ccbp_caps *c, struct ccbp_alloc *out);

/* The machine a share is converted on. */
struct ccbp_machine {
    uint32_t nsm, l2_slices, dram_channels;
    double core_mhz, icnt_mhz, dram_mhz;
};

/* Requests per SM per window of `window` core cycles that keep application k at its share of
 * out (NBI: its NoC share; DBI: its DRAM share); 0 (unlimited) for LS or unknown costs, at
 * least 1 otherwise. */
uint32_t ccbp_quota(const struct ccbp_prof *p, const struct ccbp_alloc *a, unsigned k,
                    const struct ccbp_machine *m, uint32_t window);

/* The crossbar ports a NoC measure's peak counts (one flit per port per interconnect cycle):
 * both: SMs + L2 slices; req: the L2 slices; rep: the SMs. */
double ccbp_noc_ports(const struct ccbp_machine *m, unsigned noc_dir);

/* Percent of peak: NoC flits (both directions) over `cycles` core cycles, and DRAM data cycles. */
double ccbp_noc_pct(const struct ccbp_machine *m, uint64_t flits, uint64_t cycles);
double ccbp_dram_pct(const struct ccbp_machine *m, uint64_t data, uint64_t cycles);

#endif
