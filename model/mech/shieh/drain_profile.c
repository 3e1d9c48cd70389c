/* SPDX-License-Identifier: MIT
 * drain_profile.c - writing and loading the Oracle baseline's profile (drain_profile.h; Shieh
 * thesis §5.3, digest §5.3 and §7 item 10).
 *
 * Loading reads every record first (launch, CTA, instructions, cycles), then lays the CTAs of
 * each launch out densely (index first[L] + cta) with their true CPI (cycles / instructions) and
 * each launch's means over its profiled CTAs; one allocation holds everything.
 */
#include "drain_profile.h"
#include "shieh_mech.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define HD_DP_MAGIC "heddle-drain-profile"
#define HD_DP_MAX_LAUNCH 1000000u
#define HD_DP_MAX_CTA 100000000ull

int hd_drain_profile_write(const struct hd_timing_stats *s, FILE *f)
{
    int rc = 0;
    fprintf(f, "# The Oracle's profile (model/mech/shieh/drain_profile.h): per finished CTA of each "
               "launch,\n# its warp instructions and cycles from first placement to its end.\n");
    fprintf(f, HD_DP_MAGIC " 1\n# launch kernel cta warp_instrs cycles\n");
    for (uint32_t i = 0; i < s->nlaunch; i++) {
        const struct hd_launch_info *li = &s->launch[i];
        if (li->cta_prof_oom)
            rc = -1;
        if (!li->cta_prof)
            continue;
        for (uint64_t c = 0; c < li->c.ctas; c++)
            if (li->cta_prof[2 * c])
                fprintf(f, "%u %s %" PRIu64 " %" PRIu64 " %" PRIu64 "\n", li->id,
                        li->kernel[0] ? li->kernel : "?", c, li->cta_prof[2 * c],
                        li->cta_prof[2 * c + 1]);
    }
    return rc || ferror(f) ? -1 : 0;
}

struct rec {
    uint32_t launch;
    unsigned line;             /* where it was read */
    uint64_t cta, instrs, cycles;
};

static int fail(char *err, size_t errlen, const char *path, unsigned line, const char *why)
{
    if (line)
        snprintf(err, errlen, "%s:%u: %s", path, line, why);
    else
        snprintf(err, errlen, "%s: %s", path, why);
    return -1;
}

/* Parse an unsigned decimal token (all digits, no sign) into *v; false otherwise. */
static bool parse_u64(const char *t, uint64_t *v)
{
    if (!t || !*t || *t < '0' || *t > '9')
        return false;
    char *end;
    errno = 0;
    const unsigned long long x = strtoull(t, &end, 10);
    if (*end || errno)
        return false;
    *v = x;
    return true;
}

/* Lay out recs (n of them) as a profile in one block; -1 out of memory, or -2 with *dup the
 * index of a record naming a CTA listed before. */
static int build(const struct rec *r, size_t n, struct hd_drain_profile_owned *out, size_t *dup)
{
    uint32_t nl = 0;
    for (size_t i = 0; i < n; i++)
        nl = r[i].launch + 1 > nl ? r[i].launch + 1 : nl;
    uint64_t *span = calloc(nl ? nl : 1, sizeof *span); /* CTAs of each launch (max cta + 1) */
    if (!span)
        return -1;
    for (size_t i = 0; i < n; i++)
        span[r[i].launch] = r[i].cta + 1 > span[r[i].launch] ? r[i].cta + 1 : span[r[i].launch];
    uint64_t total = 0;
    for (uint32_t l = 0; l < nl; l++)
        total += span[l];
    const size_t bytes = (size_t)(nl + 1) * sizeof(uint64_t) +
                         (2 * (size_t)nl + 2 * (size_t)total) * sizeof(double);
    char *mem = calloc(1, bytes ? bytes : 1);
    if (!mem) {
        free(span);
        return -1;
    }
    uint64_t *first = (uint64_t *)mem;
    double *cpi = (double *)(first + nl + 1), *instrs = cpi + nl;
    double *cta_cpi = instrs + nl, *cta_instrs = cta_cpi + total;
    first[0] = 0;
    for (uint32_t l = 0; l < nl; l++)
        first[l + 1] = first[l] + span[l];
    free(span);
    double *cnt = calloc(nl ? nl : 1, sizeof *cnt);
    if (!cnt) {
        free(mem);
        return -1;
    }
    for (size_t i = 0; i < n; i++) {
        const uint64_t at = first[r[i].launch] + r[i].cta;
        if (cta_instrs[at] > 0.0) {
            free(cnt);
            free(mem);
            *dup = i;
            return -2;
        }
        cta_instrs[at] = (double)r[i].instrs;
        cta_cpi[at] = (double)r[i].cycles / (double)r[i].instrs;
        cpi[r[i].launch] += cta_cpi[at];
        instrs[r[i].launch] += cta_instrs[at];
        cnt[r[i].launch] += 1.0;
    }
    for (uint32_t l = 0; l < nl; l++)
        if (cnt[l] > 0.0) {
            cpi[l] /= cnt[l];
            instrs[l] /= cnt[l];
        }
    free(cnt);
    out->mem = mem;
    out->p = (struct hd_drain_profile){nl, cpi, instrs, first, cta_cpi, cta_instrs};
    return 0;
}

int hd_drain_profile_load(const char *path, struct hd_drain_profile_owned *out, char *err,
                          size_t errlen)
{
    memset(out, 0, sizeof *out);
    FILE *f = fopen(path, "r");
    if (!f) {
        char why[160];
        snprintf(why, sizeof why, "cannot open the Oracle's profile: %s (make one with heddle "
                                  "run WORKLOAD --profile-out FILE)", strerror(errno));
        return fail(err, errlen, path, 0, why);
    }
    struct stat st;
    if (fstat(fileno(f), &st) == 0 && S_ISDIR(st.st_mode)) { /* fopen takes one; reads fail */
        fclose(f);
        return fail(err, errlen, path, 0, "is a directory, not a drain profile");
    }
    struct rec *r = NULL;
    char(*names)[HD_DP_KERNEL_MAX] = NULL; /* per launch, as read */
    unsigned *name_line = NULL;
    uint32_t nnames = 0;
    size_t n = 0, cap = 0;
    char buf[512], why[200];
    unsigned line = 0;
    bool header = false;
    int rc = -1;
    while (fgets(buf, sizeof buf, f)) {
        line++;
        if (!strchr(buf, '\n') && !feof(f)) {
            fail(err, errlen, path, line, "line too long");
            goto out;
        }
        char *hash = strchr(buf, '#');
        if (hash)
            *hash = '\0';
        char *tok[6];
        unsigned nt = 0;
        for (char *t = buf; *t;) { /* split on blanks in place */
            while (*t == ' ' || *t == '\t' || *t == '\r' || *t == '\n')
                *t++ = '\0';
            if (!*t)
                break;
            tok[nt < 6 ? nt++ : 5] = t;
            while (*t && *t != ' ' && *t != '\t' && *t != '\r' && *t != '\n')
                t++;
        }
        if (nt == 0)
            continue;
        if (!header) {
            if (nt != 2 || strcmp(tok[0], HD_DP_MAGIC) != 0 || strcmp(tok[1], "1") != 0) {
                fail(err, errlen, path, line,
                     "not a drain profile: the first line must be '" HD_DP_MAGIC " 1'");
                goto out;
            }
            header = true;
            continue;
        }
        uint64_t l, c, in, cy;
        if (nt != 5 || !parse_u64(tok[0], &l) || !parse_u64(tok[2], &c) ||
            !parse_u64(tok[3], &in) || !parse_u64(tok[4], &cy)) {
            fail(err, errlen, path, line,
                 "expected 'LAUNCH KERNEL CTA WARP_INSTRS CYCLES' (unsigned integers but KERNEL)");
            goto out;
        }
        if (l >= HD_DP_MAX_LAUNCH || c >= HD_DP_MAX_CTA) {
            snprintf(why, sizeof why, "launch %" PRIu64 " or CTA %" PRIu64 " out of range "
                                      "(launch < %u, CTA < %llu)", l, c, HD_DP_MAX_LAUNCH,
                     HD_DP_MAX_CTA);
            fail(err, errlen, path, line, why);
            goto out;
        }
        if (in == 0 || cy == 0) {
            fail(err, errlen, path, line, "a profiled CTA needs instructions and cycles > 0");
            goto out;
        }
        if (strlen(tok[1]) >= HD_DP_KERNEL_MAX) {
            snprintf(why, sizeof why, "kernel name longer than %d bytes", HD_DP_KERNEL_MAX - 1);
            fail(err, errlen, path, line, why);
            goto out;
        }
        if (l >= nnames) { /* one name per launch id, grown to the largest id */
            uint32_t nn = nnames ? nnames : 16;
            while (nn <= l)
                nn *= 2;
            void *g1 = realloc(names, (size_t)nn * sizeof *names);
            if (g1)
                names = g1;
            void *g2 = g1 ? realloc(name_line, (size_t)nn * sizeof *name_line) : NULL;
            if (!g1 || !g2) {
                fail(err, errlen, path, line, "host out of memory");
                goto out;
            }
            name_line = g2;
            memset(names + nnames, 0, (size_t)(nn - nnames) * sizeof *names);
            nnames = nn;
        }
        if (!names[l][0]) {
            snprintf(names[l], sizeof names[l], "%s", tok[1]);
            name_line[l] = line;
        } else if (strcmp(names[l], tok[1]) != 0) {
            snprintf(why, sizeof why, "launch %" PRIu64 " is kernel %.48s here and kernel %.48s "
                     "on line %u: one kernel per launch", l, tok[1], names[l], name_line[l]);
            fail(err, errlen, path, line, why);
            goto out;
        }
        if (n == cap) {
            cap = cap ? 2 * cap : 256;
            struct rec *g = realloc(r, cap * sizeof *r);
            if (!g) {
                fail(err, errlen, path, line, "host out of memory");
                goto out;
            }
            r = g;
        }
        r[n++] = (struct rec){(uint32_t)l, line, c, in, cy};
    }
    if (ferror(f)) {
        fail(err, errlen, path, line, "read error");
        goto out;
    }
    if (!header || n == 0) {
        fail(err, errlen, path, line, header ? "no CTA in the profile" : "empty file");
        goto out;
    }
    size_t dup = 0;
    const int b = build(r, n, out, &dup);
    if (b == -2) {
        snprintf(why, sizeof why, "launch %u CTA %" PRIu64 " listed twice", r[dup].launch,
                 r[dup].cta);
        fail(err, errlen, path, r[dup].line, why);
        goto out;
    }
    if (b != 0) {
        fail(err, errlen, path, 0, "host out of memory");
        goto out;
    }
    out->kernel = names;
    out->nkernel = nnames;
    names = NULL;
    rc = 0;
out:
    free(r);
    free(names);
    free(name_line);
    fclose(f);
    return rc;
}

const char *hd_drain_profile_kernel(const struct hd_drain_profile_owned *o, uint32_t id)
{
    return o && id < o->nkernel && o->kernel[id][0] ? o->kernel[id] : NULL;
}

int hd_drain_profile_copy(const struct hd_drain_profile *src, struct hd_drain_profile_owned *out)
{
    memset(out, 0, sizeof *out);
    if (!src || src->n == 0)
        return 0;
    const uint32_t nl = src->n;
    const uint64_t total = src->first ? src->first[nl] : 0;
    const size_t bytes = (size_t)(nl + 1) * sizeof(uint64_t) +
                         (2 * (size_t)nl + 2 * (size_t)total) * sizeof(double);
    char *mem = calloc(1, bytes);
    if (!mem)
        return -1;
    uint64_t *first = (uint64_t *)mem;
    double *cpi = (double *)(first + nl + 1), *instrs = cpi + nl;
    double *cta_cpi = instrs + nl, *cta_instrs = cta_cpi + total;
    memcpy(cpi, src->cpi, nl * sizeof *cpi);
    memcpy(instrs, src->instrs, nl * sizeof *instrs);
    if (src->first) {
        memcpy(first, src->first, (nl + 1) * sizeof *first);
        memcpy(cta_cpi, src->cta_cpi, total * sizeof *cta_cpi);
        memcpy(cta_instrs, src->cta_instrs, total * sizeof *cta_instrs);
    }
    out->mem = mem;
    out->p = (struct hd_drain_profile){nl, cpi, instrs, src->first ? first : NULL,
                                       src->first ? cta_cpi : NULL,
                                       src->first ? cta_instrs : NULL};
    return 0;
}

void hd_drain_profile_free(struct hd_drain_profile_owned *o)
{
    if (!o)
        return;
    free(o->mem);
    free(o->kernel);
    memset(o, 0, sizeof *o);
}

int hd_preempt_oracle_create(const struct hd_gpu_timing_params *p, struct hd_preempt_policy *out,
                             char *err, size_t errlen)
{
    if (!p->ctx.oracle_profile[0]) {
        snprintf(err, errlen, "key 'preempt_policy': oracle needs [context] oracle_profile, a "
                              "profile written by heddle run WORKLOAD --profile-out FILE");
        return -1;
    }
    struct hd_drain_profile_owned prof;
    char why[400];
    if (hd_drain_profile_load(p->ctx.oracle_profile, &prof, why, sizeof why) != 0) {
        snprintf(err, errlen, "key 'oracle_profile': %s", why);
        return -1;
    }
    const int rc = hd_preempt_shieh_create(p, true, &prof.p, out, err, errlen);
    hd_drain_profile_free(&prof);
    return rc;
}
