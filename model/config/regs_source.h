/* SPDX-License-Identifier: MIT
 * regs_source.h - which register count per thread a kernel's occupancy and register allocation
 * use ([sm] regs_source, issue 15): the one ptxas recorded, Heddle's register allocator's, or a
 * number; and the check every count given by hand passes (heddle launch --regs, the runtime's
 * hd_kernel_set_regs, a number in the configuration).
 *
 * Design: a pure resolution, shared by the timing model (model/timing/gpu_timing.c, per launch)
 * and the reports that predict it (heddle list, heddle ptx-info), so a report shows the count the
 * model runs with. The counts a kernel may have:
 *   given     set by hand for this kernel (hd_kernel_set_regs, heddle launch --regs)
 *   ptxas     recorded by `ptxas -v` beside the PTX (NAME.ptxas.txt; hd_module_set_ptxas)
 *   regalloc  Heddle's register allocator (model/compiler/regalloc.h), or PTX register words when
 *             it failed
 * A count given by hand for a kernel wins whatever the key says. Otherwise regs_source = ptxas (the
 * default) takes ptxas's count, else falls back to regalloc and says so (source
 * "regalloc-fallback"; the run summary and the CLI warn); regalloc takes the allocator's count
 * whatever was recorded; a number N takes N for every kernel. A ptxas count
 * above max_regs_per_thread (sm_75's 255 against Fermi's 63) stays as recorded and is capped by
 * occupancy.h like a compiler for the target would (regs_clamped); a count given by hand or in the
 * configuration above the limit is an error naming it.
 *
 * The register-bank model (operand collector) keeps the allocator's physical register numbers
 * whatever the count: they are mapped into the chosen budget (hd_regs_bank_fold).
 */
#ifndef HD_REGS_SOURCE_H
#define HD_REGS_SOURCE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

enum hd_regs_mode { HD_REGS_PTXAS, HD_REGS_REGALLOC, HD_REGS_FIXED };

struct hd_regs_source {
    enum hd_regs_mode mode;
    uint32_t fixed;           /* HD_REGS_FIXED: the count */
};

/* Parse a value of [sm] regs_source ("ptxas", "regalloc", or a count 1..max_regs; blanks and
 * case ignored). Returns 0, or -1 with a message naming the key and the limit in err. */
int hd_regs_source_parse(const char *value, uint32_t max_regs, struct hd_regs_source *out,
                         char *err, size_t errlen);

/* Check a register count given by hand (what: "--regs", "hd_kernel_set_regs(sgemm_tiled)"):
 * 1..max_regs. `config` names the configuration in the message. Returns 0, or -1 with a message
 * naming the limit ("--regs 300: more than the 63 registers per thread one thread may use on
 * fermi-gtx480 ([sm] max_regs_per_thread)"). */
int hd_regs_check_count(long long count, uint32_t max_regs, const char *config, const char *what,
                        char *err, size_t errlen);

/* The counts known for one kernel (0: not known). */
struct hd_regs_known {
    uint32_t given, ptxas, regalloc;
    bool regalloc_failed;     /* regalloc is PTX register words (the allocator failed) */
};

struct hd_regs_choice {
    uint32_t regs;            /* registers per thread to count (before capping at the limit) */
    const char *source;       /* "given", "ptxas", "config", "regalloc", "regalloc-fallback",
                                 "ptx" (PTX words; the allocator failed) */
    bool fallback;            /* ptxas was asked for and none was known: warn */
};

/* Resolve the count of a kernel under `src`. */
void hd_regs_choose(const struct hd_regs_source *src, const struct hd_regs_known *k,
                    struct hd_regs_choice *out);

/* Does the timing model run the register allocator's spill code (model/timing/sm_spill.c) for a
 * kernel whose count was chosen as `regs` from `source` (hd_regs_choice)? With Heddle's own count
 * (regalloc, regalloc-fallback, ptx) the allocator's code is the kernel's, spills included. A
 * compiler's count (ptxas, given, config) that fits max_regs is that compiler's code, whose own
 * spills (ptxas's "spill stores") Heddle cannot place: not timed. A compiler's count above the
 * limit (sm_75's 255 registers on Fermi's 63) means a compiler for this target must spill: the
 * allocator's spills at the limit stand for that code. `heddle ptx-info` says which applies. */
static inline bool hd_regs_spill_timed(const char *source, uint32_t regs, uint32_t max_regs)
{
    if (!source || strncmp(source, "regalloc", 8) == 0 || strcmp(source, "ptx") == 0)
        return true;
    return regs > max_regs;
}

/* The register-bank model's number for the allocator's physical register `phys` in a budget of
 * `regs` registers per thread: itself when it fits, else folded modulo the budget (ptxas fitted
 * the kernel in fewer registers than our allocator used). */
static inline uint32_t hd_regs_bank_fold(uint32_t phys, uint32_t regs)
{
    return regs && phys >= regs ? phys % regs : phys;
}

#endif
