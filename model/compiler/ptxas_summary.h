/* SPDX-License-Identifier: MIT
 * ptxas_summary.h - reading the resource use `ptxas -v` recorded for a PTX module: one line per
 * kernel, "kernel=K registers=R shared=S local=L", '#' comments and blank lines (the
 * NAME.ptxas.txt files scripts/regen-ptx.sh writes beside each workload's PTX; workloads/README.md).
 *
 * Design: the real compiler's register count is what occupancy should count (issue 15); this
 * parser is the one place that reads the format, for the runtime (hd_module_set_ptxas) and the
 * reports (heddle list, ptx-info, list --variants). Strict: an unknown field, a missing kernel= or
 * registers=, a number that is not one, or registers outside 1..255 (the most any nvcc target
 * allows) is an error naming the file and line.
 */
#ifndef HD_PTXAS_SUMMARY_H
#define HD_PTXAS_SUMMARY_H

#include <stddef.h>
#include <stdint.h>

#define HD_PTXAS_MAX_REGS 255

struct hd_ptxas_kernel {
    char name[128];
    uint32_t registers;
    uint64_t shared;          /* static shared memory per CTA, bytes (0 when not given) */
    uint64_t local;           /* stack frame per thread, bytes (0 when not given) */
};

/* Parse text[0..len) (`name` for messages). On success returns 0 and a malloc'd array in *out
 * (count in *n; free it). On error returns -1 with "NAME:LINE: message" in err. */
int hd_ptxas_parse(const char *text, size_t len, const char *name, struct hd_ptxas_kernel **out,
                   unsigned *n, char *err, size_t errlen);

/* registers= of `kernel` in a summary that parses, or -1 (not listed, no summary, or malformed). */
int32_t hd_ptxas_regs_of(const char *text, size_t len, const char *kernel);

#endif
