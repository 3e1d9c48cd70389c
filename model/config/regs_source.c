/* SPDX-License-Identifier: MIT
 * regs_source.c - [sm] regs_source: parsing, the check of counts given by hand, and the choice
 * of a kernel's registers per thread (see regs_source.h; issue 15).
 */
#include "regs_source.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

int hd_regs_check_count(long long count, uint32_t max_regs, const char *config, const char *what,
                        char *err, size_t errlen)
{
    if (count < 1) {
        snprintf(err, errlen,
                 "%s %lld: a kernel uses at least 1 register per thread (1 .. %u on %s, [sm] "
                 "max_regs_per_thread)",
                 what, count, max_regs, config && config[0] ? config : "this configuration");
        return -1;
    }
    if (count > (long long)max_regs) {
        snprintf(err, errlen,
                 "%s %lld: more than the %u registers per thread one thread may use on %s "
                 "([sm] max_regs_per_thread)",
                 what, count, max_regs, config && config[0] ? config : "this configuration");
        return -1;
    }
    return 0;
}

int hd_regs_source_parse(const char *value, uint32_t max_regs, struct hd_regs_source *out,
                         char *err, size_t errlen)
{
    char v[64];
    size_t n = 0;
    for (const char *p = value ? value : ""; *p && n + 1 < sizeof v; p++)
        if (!isspace((unsigned char)*p))
            v[n++] = *p;
    v[n] = '\0';
    out->fixed = 0;
    if (strcasecmp(v, "ptxas") == 0) {
        out->mode = HD_REGS_PTXAS;
        return 0;
    }
    if (strcasecmp(v, "regalloc") == 0) {
        out->mode = HD_REGS_REGALLOC;
        return 0;
    }
    char *end = NULL;
    errno = 0;
    long long c = n ? strtoll(v, &end, 10) : 0;
    if (!n || !end || *end || errno) {
        snprintf(err, errlen,
                 "key 'regs_source': '%s' is not ptxas, regalloc or a register count (1..%u, "
                 "[sm] max_regs_per_thread)",
                 value ? value : "", max_regs);
        return -1;
    }
    char what[40];
    snprintf(what, sizeof what, "key 'regs_source':");
    if (hd_regs_check_count(c, max_regs, "this configuration", what, err, errlen) != 0)
        return -1;
    out->mode = HD_REGS_FIXED;
    out->fixed = (uint32_t)c;
    return 0;
}

void hd_regs_choose(const struct hd_regs_source *src, const struct hd_regs_known *k,
                    struct hd_regs_choice *out)
{
    const char *ours = k->regalloc_failed ? "ptx" : "regalloc";
    out->fallback = false;
    if (k->given) { /* set by hand for this kernel: the most specific statement */
        out->regs = k->given;
        out->source = "given";
        return;
    }
    switch (src->mode) {
    case HD_REGS_FIXED:
        out->regs = src->fixed;
        out->source = "config";
        return;
    case HD_REGS_REGALLOC:
        out->regs = k->regalloc;
        out->source = ours;
        return;
    case HD_REGS_PTXAS:
        break;
    }
    if (k->ptxas) {
        out->regs = k->ptxas;
        out->source = "ptxas";
    } else {
        out->regs = k->regalloc;
        out->source = k->regalloc_failed ? "ptx" : "regalloc-fallback";
        out->fallback = true;
    }
}
