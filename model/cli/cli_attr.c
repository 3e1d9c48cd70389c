/* SPDX-License-Identifier: MIT
 * cli_attr.c - launch attributes on the command line (cli_attr.h): arrival cycles, priorities
 * and cycle budgets, parsed the same way by `heddle launch`, `heddle run --mix` and
 * `heddle cosim --mix` (issue 34 item 2: `vecadd@-5` wrapped to 2^64 - 5, values above 2^64
 * saturated silently, a priority out of range was "not an integer").
 */
#include "cli_attr.h"

#include "cli_util.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

int hd_cli_parse_uint(const char *s, uint64_t min, uint64_t max, uint64_t *out)
{
    const bool hex = s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
    const char *d = hex ? s + 2 : s;
    if (!*d)
        return -1;
    for (const char *p = d; *p; p++) /* strtoull would take a sign and spaces */
        if (!(hex ? strchr("0123456789abcdefABCDEF", *p) : strchr("0123456789", *p)))
            return -1;
    errno = 0;
    char *end;
    unsigned long long n = strtoull(d, &end, hex ? 16 : 10);
    if (errno == ERANGE || *end || n < min || n > max)
        return -1;
    *out = n;
    return 0;
}

int hd_cli_parse_cycles(const char *cmd, const char *opt, const char *v, uint64_t min,
                        uint64_t *out)
{
    if (hd_cli_parse_uint(v, min, HD_CLI_CYCLE_MAX, out) != 0)
        return hd_cli_usage(cmd, "%s '%s': wants a cycle count from %" PRIu64 " to %llu", opt, v,
                            min, HD_CLI_CYCLE_MAX);
    return 0;
}

/* A priority: an optional '-', then decimal digits, within the bounds. */
static int priority_value(const char *s, int32_t *out)
{
    const bool neg = s[0] == '-';
    uint64_t mag;
    const uint64_t lim = neg ? (uint64_t)-HD_CLI_PRIORITY_MIN : (uint64_t)HD_CLI_PRIORITY_MAX;
    if (hd_cli_parse_uint(neg ? s + 1 : s, 0, lim, &mag) != 0 || (neg && s[1] == '0' &&
                                                                     (s[2] == 'x' || s[2] == 'X')))
        return -1;
    *out = neg ? -(int32_t)mag : (int32_t)mag;
    return 0;
}

int hd_cli_parse_priority(const char *cmd, const char *opt, const char *v, int32_t *out)
{
    if (priority_value(v, out) != 0)
        return hd_cli_usage(cmd, "%s '%s': wants an integer priority from %ld to %ld", opt, v,
                            HD_CLI_PRIORITY_MIN, HD_CLI_PRIORITY_MAX);
    return 0;
}

int hd_cli_parse_arrival(const char *cmd, const char *v, size_t *label_len, uint64_t *cycle,
                         int32_t *priority)
{
    const char *at = strchr(v, '@');
    if (!at || at == v || !at[1])
        return hd_cli_usage(cmd, "--arrive needs WORKLOAD@CYCLE[:PRIORITY], not '%s'", v);
    char num[32];
    const char *colon = strchr(at + 1, ':');
    const size_t n = colon ? (size_t)(colon - at - 1) : strlen(at + 1);
    if (n >= sizeof num || (memcpy(num, at + 1, n), num[n] = '\0',
                            hd_cli_parse_uint(num, 0, HD_CLI_CYCLE_MAX, cycle) != 0))
        return hd_cli_usage(cmd, "--arrive '%s': the cycle must be an integer from 0 to %llu", v,
                            HD_CLI_CYCLE_MAX);
    *priority = 0;
    if (colon && priority_value(colon + 1, priority) != 0)
        return hd_cli_usage(cmd, "--arrive '%s': the priority must be an integer from %ld to %ld",
                            v, HD_CLI_PRIORITY_MIN, HD_CLI_PRIORITY_MAX);
    *label_len = (size_t)(at - v);
    return 0;
}
