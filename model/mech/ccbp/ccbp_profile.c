/* SPDX-License-Identifier: MIT
 * ccbp_profile.c - the [ccbp] lists (ctas, quota, types) and the profile file Algorithm 1
 * decides from (written by experiments/ccbp.py from standalone profiling runs, Lin §2.15).
 *
 * Profile format: one statement per line, '#' starts a comment; N is the application (1-based,
 * the launch hint):
 *   app N type ls|nbi|dbi
 *   app N nbw P1 P2 ... Pn      NoC use in percent of peak with 1, 2, ... n CTAs per SM
 *   app N dbw P1 P2 ... Pn      DRAM use likewise (the same n; n is its nmax)
 *   app N nbw_req P1 ... Pn     optional: the request crossbar's use in percent of its own
 *   app N nbw_rep P1 ... Pn     peak, the reply crossbar's likewise (the same n as nbw; absent:
 *                               the nbw curve), for CanAlloc's per-crossbar sums
 *   app N noc_dir both|req|rep  what nbw and cost_noc measure (absent: both): both crossbars
 *                               (flits both ways over SM + L2 ports), or the request or reply
 *                               crossbar alone (its flits over its L2-side or SM-side ports)
 *   app N cost_noc F            NoC flits (of noc_dir) per L1D-miss request
 *   app N cost_dram F           DRAM data cycles per request
 *   app N demand THREADS REGS SMEM   one CTA's static demand
 */
#include "ccbp.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

int ccbp_parse_list(const char *key, const char *s, uint32_t *v, unsigned *n, char *err,
                    size_t errlen)
{
    *n = 0;
    while (*s) {
        while (*s == ' ' || *s == ',')
            s++;
        if (!*s)
            break;
        char *end;
        errno = 0;
        const unsigned long x = strtoul(s, &end, 10);
        if (end == s || errno || x > 1000000 || (*end && *end != ' ' && *end != ',')) {
            snprintf(err, errlen, "[ccbp] %s: '%s' is not a list of numbers (0 to 1000000)", key,
                     s);
            return -1;
        }
        if (*n == CCBP_APPS) {
            snprintf(err, errlen, "[ccbp] %s: more than %d applications", key, CCBP_APPS);
            return -1;
        }
        v[(*n)++] = (uint32_t)x;
        s = end;
    }
    return 0;
}

static int type_of(const char *w, size_t len)
{
    if (len == 2 && strncmp(w, "ls", 2) == 0)
        return CCBP_LS;
    if (len == 3 && strncmp(w, "nbi", 3) == 0)
        return CCBP_NBI;
    if (len == 3 && strncmp(w, "dbi", 3) == 0)
        return CCBP_DBI;
    return -1;
}

int ccbp_parse_types(const char *s, uint8_t *v, unsigned *n, char *err, size_t errlen)
{
    *n = 0;
    while (*s) {
        while (*s == ' ' || *s == ',')
            s++;
        if (!*s)
            break;
        size_t len = strcspn(s, " ,");
        const int t = type_of(s, len);
        if (t < 0 || *n == CCBP_APPS) {
            snprintf(err, errlen, "[ccbp] types: '%.*s' %s", (int)len, s,
                     t < 0 ? "is not ls, nbi or dbi" : "is one application too many");
            return -1;
        }
        v[(*n)++] = (uint8_t)t;
        s += len;
    }
    return 0;
}

static int bad(char *err, size_t errlen, const char *path, unsigned line, const char *what)
{
    snprintf(err, errlen, "%s:%u: %s", path, line, what);
    return -1;
}

/* Numbers after the statement's keyword into v (at most max); the count. */
static unsigned numbers(char *s, double *v, unsigned max, bool *ok)
{
    unsigned n = 0;
    *ok = true;
    for (char *tok = strtok(s, " \t\r\n"); tok; tok = strtok(NULL, " \t\r\n")) {
        char *end;
        const double x = strtod(tok, &end);
        if (*end || n == max || !(x >= 0.0) || x > 1e9) {
            *ok = false;
            return n;
        }
        v[n++] = x;
    }
    return n;
}

int ccbp_profile_read(const char *path, struct ccbp_prof *p, char *err, size_t errlen)
{
    memset(p, 0, sizeof *p);
    FILE *f = fopen(path, "r");
    if (!f) {
        snprintf(err, errlen, "[ccbp] profile '%s': cannot read it", path);
        return -1;
    }
    char buf[1024];
    unsigned line = 0;
    int st = 0;
    bool seen_nbw[CCBP_APPS] = {false}, seen_dbw[CCBP_APPS] = {false};
    unsigned xline[CCBP_APPS][2] = {{0}}, xlen[CCBP_APPS][2] = {{0}}; /* nbw_req, nbw_rep */
    while (st == 0 && fgets(buf, sizeof buf, f)) {
        line++;
        char *h = strchr(buf, '#');
        if (h)
            *h = 0;
        char word[16], what[16];
        unsigned app;
        int used = 0;
        if (sscanf(buf, " %15s", word) != 1)
            continue;
        if (strcmp(word, "app") != 0 ||
            sscanf(buf, " app %u %15s %n", &app, what, &used) < 2 || app < 1 || app > CCBP_APPS) {
            st = bad(err, errlen, path, line, "expected: app N (1 to 4) STATEMENT ...");
            break;
        }
        const unsigned k = app - 1;
        p->k = app > p->k ? app : p->k;
        char *rest = buf + used;
        double v[CCBP_NMAX + 1];
        bool ok;
        if (strcmp(what, "type") == 0) {
            size_t len = strcspn(rest, " \t\r\n");
            const int t = type_of(rest, len);
            if (t < 0)
                st = bad(err, errlen, path, line, "type must be ls, nbi or dbi");
            else
                p->type[k] = (uint8_t)t;
        } else if (strcmp(what, "nbw") == 0 || strcmp(what, "dbw") == 0) {
            const unsigned n = numbers(rest, v, CCBP_NMAX, &ok);
            const bool noc = what[0] == 'n';
            if (!ok || n == 0 || (p->nmax[k] && n != p->nmax[k]))
                st = bad(err, errlen, path, line,
                         "nbw/dbw: 1 to 32 percentages, as many as the other curve's");
            else {
                p->nmax[k] = n;
                for (unsigned i = 0; i < n; i++)
                    (noc ? p->nbw : p->dbw)[k][i + 1] = v[i];
                (noc ? seen_nbw : seen_dbw)[k] = true;
            }
        } else if (strcmp(what, "nbw_req") == 0 || strcmp(what, "nbw_rep") == 0) {
            const unsigned n = numbers(rest, v, CCBP_NMAX, &ok), x = what[6] == 'p';
            if (!ok || n == 0 || (p->nmax[k] && n != p->nmax[k]))
                st = bad(err, errlen, path, line,
                         "nbw_req/nbw_rep: 1 to 32 percentages, as many as the nbw curve's");
            else {
                for (unsigned i = 0; i < n; i++)
                    (x ? p->rep : p->req)[k][i + 1] = v[i];
                xline[k][x] = line;
                xlen[k][x] = n;
            }
        } else if (strcmp(what, "cost_noc") == 0 || strcmp(what, "cost_dram") == 0) {
            if (numbers(rest, v, 1, &ok) != 1 || !ok)
                st = bad(err, errlen, path, line, "expected one non-negative number");
            else
                (what[5] == 'n' ? p->cost_noc : p->cost_dram)[k] = v[0];
        } else if (strcmp(what, "noc_dir") == 0) {
            size_t len = strcspn(rest, " \t\r\n");
            if (len == 4 && strncmp(rest, "both", 4) == 0)
                p->noc_dir[k] = CCBP_NOC_BOTH;
            else if (len == 3 && strncmp(rest, "req", 3) == 0)
                p->noc_dir[k] = CCBP_NOC_REQ;
            else if (len == 3 && strncmp(rest, "rep", 3) == 0)
                p->noc_dir[k] = CCBP_NOC_REP;
            else
                st = bad(err, errlen, path, line, "noc_dir must be both, req or rep");
        } else if (strcmp(what, "demand") == 0) {
            if (numbers(rest, v, 3, &ok) != 3 || !ok)
                st = bad(err, errlen, path, line, "demand: THREADS REGISTERS SHARED_BYTES");
            else {
                p->threads[k] = (uint32_t)v[0];
                p->regs[k] = (uint32_t)v[1];
                p->smem[k] = (uint32_t)v[2];
            }
        } else
            st = bad(err, errlen, path, line,
                     "statement must be type, nbw, dbw, nbw_req, nbw_rep, noc_dir, cost_noc, "
                     "cost_dram or demand");
    }
    fclose(f);
    for (unsigned k = 0; st == 0 && k < p->k; k++)
        if (!seen_nbw[k] || !seen_dbw[k]) {
            snprintf(err, errlen, "%s: application %u has no %s curve", path, k + 1,
                     seen_nbw[k] ? "dbw" : "nbw");
            st = -1;
        }
    for (unsigned k = 0; st == 0 && k < p->k; k++)
        for (unsigned x = 0; st == 0 && x < 2; x++) {
            if (xline[k][x] && xlen[k][x] != p->nmax[k]) /* (given before the nbw curve) */
                st = bad(err, errlen, path, xline[k][x],
                         "nbw_req/nbw_rep: 1 to 32 percentages, as many as the nbw curve's");
            else if (!xline[k][x]) /* absent: both crossbars take the nbw curve */
                memcpy(x ? p->rep[k] : p->req[k], p->nbw[k], sizeof p->nbw[k]);
        }
    if (st == 0 && p->k == 0) {
        snprintf(err, errlen, "%s: no application", path);
        st = -1;
    }
    return st;
}
