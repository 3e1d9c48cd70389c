/* SPDX-License-Identifier: MIT
 * mem_full.h - the full memory system behind the memory interface (mem_iface.h): per-SM L1
 * data and constant caches with MSHRs and miss queues, a crossbar with separate request and
 * reply networks, one L2 slice per memory sub-partition, and FR-FCFS GDDR5 channels, each in
 * its clock domain. Selected by [mem] model = full; docs/memory.md describes it.
 *
 * Design: the GPU ticks the model once per core cycle, after the SMs' sends of the previous
 * cycle. A tick runs, from the last stage to the first (rule C8): the L1s take one reply each;
 * the interconnect cycles due in this core cycle (deliveries, injections from the L2 output
 * queues and the L1 miss queues through the admission policy, switch allocation); the L2
 * cycles; the DRAM cycles; then the L1 lookups. Clock domains advance by exact fractional
 * accumulators (clock_domain.h). next_event() reports the next cycle at which anything can
 * happen when everything in flight only waits on a fixed delay, so the GPU may skip cycles.
 *
 * Per-kernel L1 bypass: [l1d] bypass_global applies to every kernel; [l1d] bypass_kernels
 * names kernels, matched when the GPU announces a launch with hd_mem_full_launch(); a study can
 * also set the flag of a launch directly with hd_mem_full_set_bypass().
 */
#ifndef HD_MEM_FULL_H
#define HD_MEM_FULL_H

#include "mem_iface.h"
#include "config.h"
#include "mem_observer.h"
#include "mem_params.h"
#include "mem_stats.h"
#include "missq_policy.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Create the model for cfg (gpu.num_sms SMs). Returns 0, or -1 with a message naming the key
 * ("key 'bank_bits' in [addrmap]: ...") or reporting host memory exhaustion. */
int hd_mem_full_create(const struct hd_config *cfg, struct hd_mem *out, char *err,
                       size_t errlen);
/* Is m the full model? */
bool hd_mem_is_full(const struct hd_mem *m);

/* The GPU announces launch `kernel` (launch id) of the kernel called `name`: its global loads
 * bypass the L1 if [l1d] bypass_kernels lists the name. */
void hd_mem_full_launch(struct hd_mem *m, uint32_t kernel, const char *name);
/* A host-to-device copy of [addr, addr + bytes) just happened (or, with [mem] l2_preload_d2h, a
 * device-to-host one): with [mem] l2_preload_copies its lines become resident and clean in their
 * L2 slices (GPGPU-Sim gpgpu_perf_sim_memcpy: tag_array::fill sets each copied sector VALID, so
 * a sector a kernel left dirty loses its write-back; a victim goes without one), in copy order
 * (LRU); otherwise nothing. Between batches only (nothing in flight). */
void hd_mem_full_preload(struct hd_mem *m, uint64_t addr, uint64_t bytes);
void hd_mem_full_set_bypass(struct hd_mem *m, uint32_t kernel, bool bypass);

/* Replace the miss-queue admission policy (NULL ops: back to FIFO). The previous policy's
 * destroy() is called; the memory system destroys the last one. */
void hd_mem_full_set_mq_policy(struct hd_mem *m, const struct hd_mq_policy_ops *ops, void *impl);
/* Watch L1 MSHR events (NULL: stop); the observer must outlive its use. */
void hd_mem_full_set_observer(struct hd_mem *m, const struct hd_mem_observer *obs);

/* The statistics (read-only; valid until the model is destroyed). */
const struct hd_mem_stats *hd_mem_full_stats(const struct hd_mem *m);
/* Its parameters (read-only). */
const struct hd_mem_params *hd_mem_full_params(const struct hd_mem *m);
/* Zero the statistics (e.g. between the warm-up and the measured part of a study). */
void hd_mem_full_reset_stats(struct hd_mem *m);

/* SM sm's L1 (l1_reserve.h reserves its ways for contexts), or NULL if m is not the full
 * memory system. */
struct hd_l1 *hd_mem_full_l1(struct hd_mem *m, uint32_t sm);

#endif
