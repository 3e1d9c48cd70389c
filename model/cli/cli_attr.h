/* SPDX-License-Identifier: MIT
 * cli_attr.h - launch attributes on the command line (docs/context.md "Launch attributes"): one
 * parser of arrival cycles, priorities and cycle budgets for `heddle launch` (--arrive CYCLE,
 * --priority P, --latency-bound CYCLES, --hint N) and `heddle run --mix` / `heddle cosim --mix`
 * (--arrive WORKLOAD@CYCLE[:PRIORITY], --repeat-until CYCLES), so every command accepts the same
 * values and refuses the same ones with the range in the message (issue 34 item 2).
 */
#ifndef HD_CLI_ATTR_H
#define HD_CLI_ATTR_H

#include <stddef.h>
#include <stdint.h>

/* Cycle values are bounded as [timing] max_cycles: 10^15 cycles (about 16 days of a 700 MHz
 * GPU), far from the 2^64 where a count would wrap. */
#define HD_CLI_CYCLE_MAX 1000000000000000ull
/* Priorities: larger runs first (docs/context.md); the bound keeps sums of priorities exact. */
#define HD_CLI_PRIORITY_MIN (-1000000L)
#define HD_CLI_PRIORITY_MAX 1000000L

/* An unsigned integer (decimal, or hexadecimal after 0x) in min..max: 0 and *out set, or -1
 * (no message: the caller names the option and the range). No sign, no space, no overflow. */
int hd_cli_parse_uint(const char *s, uint64_t min, uint64_t max, uint64_t *out);

/* Option `opt` with value `v` as a cycle count in min..HD_CLI_CYCLE_MAX ("--arrive '-5': the
 * cycle must be an integer from 0 to 1000000000000000"). 0, or HD_CLI_USAGE after a message. */
int hd_cli_parse_cycles(const char *cmd, const char *opt, const char *v, uint64_t min,
                        uint64_t *out);
/* Option `opt` with value `v` as a priority in HD_CLI_PRIORITY_MIN..MAX. 0 or HD_CLI_USAGE. */
int hd_cli_parse_priority(const char *cmd, const char *opt, const char *v, int32_t *out);

/* --arrive WORKLOAD@CYCLE[:PRIORITY] of `run --mix` and `cosim --mix`: the workload's label
 * (up to '@', *label_len bytes of v), its arrival cycle and priority (0 when not given). 0, or
 * HD_CLI_USAGE after a message naming the whole value and the range of the bad part. */
int hd_cli_parse_arrival(const char *cmd, const char *v, size_t *label_len, uint64_t *cycle,
                         int32_t *priority);

#endif
