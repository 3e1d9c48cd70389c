/* SPDX-License-Identifier: MIT
 * ptxas_summary.c - the parser of `ptxas -v` summaries (see ptxas_summary.h).
 */
#include "ptxas_summary.h"

#include <ctype.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int line_fail(char *err, size_t errlen, const char *name, unsigned line, const char *what,
                     const char *tok, size_t toklen)
{
    snprintf(err, errlen, "%s:%u: %s '%.*s' (lines are \"kernel=K registers=R shared=S "
             "local=L\")", name, line, what, (int)(toklen > 80 ? 80 : toklen), tok);
    return -1;
}

static bool number(const char *s, size_t n, uint64_t *out)
{
    if (n == 0 || n > 19)
        return false;
    uint64_t v = 0;
    for (size_t i = 0; i < n; i++) {
        if (!isdigit((unsigned char)s[i]))
            return false;
        v = v * 10 + (uint64_t)(s[i] - '0');
    }
    *out = v;
    return true;
}

/* One non-comment line b[0..n) into k. */
static int parse_line(const char *b, size_t n, const char *name, unsigned line,
                      struct hd_ptxas_kernel *k, char *err, size_t errlen)
{
    memset(k, 0, sizeof *k);
    bool have_regs = false;
    for (size_t i = 0; i < n;) {
        while (i < n && isspace((unsigned char)b[i]))
            i++;
        if (i == n)
            break;
        size_t t = i;
        while (i < n && !isspace((unsigned char)b[i]))
            i++;
        const char *tok = b + t, *eq = memchr(tok, '=', i - t);
        if (!eq)
            return line_fail(err, errlen, name, line, "expected FIELD=VALUE, got", tok, i - t);
        size_t kl = (size_t)(eq - tok), vl = i - t - kl - 1;
        const char *val = eq + 1;
        uint64_t v = 0;
        if (kl == 6 && memcmp(tok, "kernel", 6) == 0) {
            if (vl == 0 || vl >= sizeof k->name)
                return line_fail(err, errlen, name, line, "bad kernel name in", tok, i - t);
            memcpy(k->name, val, vl);
            k->name[vl] = '\0';
            continue;
        }
        if (!number(val, vl, &v))
            return line_fail(err, errlen, name, line, "not a number:", tok, i - t);
        if (kl == 9 && memcmp(tok, "registers", 9) == 0) {
            if (v < 1 || v > HD_PTXAS_MAX_REGS)
                return line_fail(err, errlen, name, line,
                                 "registers must be 1..255 (the most any nvcc target allows):",
                                 tok, i - t);
            k->registers = (uint32_t)v;
            have_regs = true;
        } else if (kl == 6 && memcmp(tok, "shared", 6) == 0) {
            k->shared = v;
        } else if (kl == 5 && memcmp(tok, "local", 5) == 0) {
            k->local = v;
        } else {
            return line_fail(err, errlen, name, line, "unknown field", tok, i - t);
        }
    }
    if (!k->name[0])
        return line_fail(err, errlen, name, line, "no kernel= in", b, n);
    if (!have_regs)
        return line_fail(err, errlen, name, line, "no registers= in", b, n);
    return 0;
}

int hd_ptxas_parse(const char *text, size_t len, const char *name, struct hd_ptxas_kernel **out,
                   unsigned *n, char *err, size_t errlen)
{
    *out = NULL;
    *n = 0;
    if (!name)
        name = "(ptxas summary)";
    if (!text) {
        snprintf(err, errlen, "%s: no text", name);
        return -1;
    }
    unsigned cap = 0, cnt = 0, line = 0;
    struct hd_ptxas_kernel *k = NULL;
    for (size_t pos = 0; pos < len;) {
        const char *b = text + pos;
        const char *nl = memchr(b, '\n', len - pos);
        size_t ln = nl ? (size_t)(nl - b) : len - pos;
        pos += ln + 1;
        line++;
        size_t s = 0;
        while (s < ln && isspace((unsigned char)b[s]))
            s++;
        if (s == ln || b[s] == '#')
            continue;
        if (cnt == cap) {
            unsigned ncap = cap ? cap * 2 : 8;
            struct hd_ptxas_kernel *nk = realloc(k, ncap * sizeof *nk);
            if (!nk) {
                free(k);
                snprintf(err, errlen, "%s: host out of memory", name);
                return -1;
            }
            k = nk;
            cap = ncap;
        }
        if (parse_line(b + s, ln - s, name, line, &k[cnt], err, errlen) != 0) {
            free(k);
            return -1;
        }
        for (unsigned j = 0; j < cnt; j++)
            if (strcmp(k[j].name, k[cnt].name) == 0) {
                snprintf(err, errlen, "%s:%u: kernel %s is listed twice", name, line, k[cnt].name);
                free(k);
                return -1;
            }
        cnt++;
    }
    *out = k;
    *n = cnt;
    return 0;
}

int32_t hd_ptxas_regs_of(const char *text, size_t len, const char *kernel)
{
    struct hd_ptxas_kernel *k;
    unsigned n;
    char err[256];
    if (!text || !kernel || hd_ptxas_parse(text, len, NULL, &k, &n, err, sizeof err) != 0)
        return -1;
    int32_t r = -1;
    for (unsigned i = 0; i < n; i++)
        if (strcmp(k[i].name, kernel) == 0)
            r = (int32_t)k[i].registers;
    free(k);
    return r;
}
