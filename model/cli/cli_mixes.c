/* SPDX-License-Identifier: MIT
 * cli_mixes.c - the mixes file (workloads/mixes.ini) and `heddle list --mixes`.
 *
 * Format: INI sections, one per mix, with the keys `workloads` (2 to HD_CLI_MIX_MAX registered
 * workload names separated by blanks), `kind` and `why` (one line each), and optionally
 * `repeat` (one workload of the mix by its label, its name or NAME#K when the name occurs more
 * than once: run again each time it finishes while the others run, cli_mix_repeat.c); '#' and
 * ';' start comment lines. Everything is checked when the file is read: a malformed line, an unknown or
 * repeated key, a missing key, a bad or repeated mix name and an unknown workload are errors
 * that name the file and line. The file is embedded into `heddle` at build time
 * (model/cli/CMakeLists.txt), so mixes run from any directory; --mixes-file reads another one.
 */
#include "cli_mix.h"
#include "cli_util.h"
#include "workload.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

extern const unsigned char hd_cli_mixes_ini[];
extern const size_t hd_cli_mixes_ini_len;

enum { KEY_WORKLOADS = 1, KEY_KIND = 2, KEY_WHY = 4, KEY_ALL = 7, KEY_REPEAT = 8, KEY_HINT = 16 };

struct mix_parser {
    const char *source;
    unsigned line;
    char *err;
    size_t errlen;
    struct hd_cli_mixes *out;
    unsigned cap, seen; /* seen: KEY_* of the current mix */
};

static int mp_fail(struct mix_parser *p, unsigned line, const char *fmt, ...) HD_CLI_PRINTF(3, 4);
static int mp_fail(struct mix_parser *p, unsigned line, const char *fmt, ...)
{
    int at = snprintf(p->err, p->errlen, "%s:%u: ", p->source, line);
    va_list ap;
    va_start(ap, fmt);
    if (at >= 0 && (size_t)at < p->errlen)
        vsnprintf(p->err + at, p->errlen - (size_t)at, fmt, ap);
    va_end(ap);
    return -1;
}

static char *trim(char *s)
{
    while (isspace((unsigned char)*s))
        s++;
    size_t n = strlen(s);
    while (n && isspace((unsigned char)s[n - 1]))
        s[--n] = '\0';
    return s;
}

/* Is `label` the label of one of m's workloads (its name, NAME#K when the name repeats)? */
static bool is_label(const struct hd_cli_mix *m, const char *label)
{
    for (unsigned i = 0; i < m->nworkloads; i++) {
        unsigned same = 0, before = 0;
        for (unsigned k = 0; k < m->nworkloads; k++)
            if (strcmp(m->workloads[k], m->workloads[i]) == 0) {
                same++;
                before += k < i;
            }
        char l[96];
        if (same > 1)
            snprintf(l, sizeof l, "%s#%u", m->workloads[i], before + 1);
        else
            snprintf(l, sizeof l, "%s", m->workloads[i]);
        if (strcmp(l, label) == 0)
            return true;
    }
    return false;
}

/* hint = W=N [W=N]...: each W one of m's labels (once), each N an integer 0..2^32-1. */
static int mp_hints(struct mix_parser *p, const struct hd_cli_mix *m)
{
    char buf[sizeof m->hint], seen[HD_CLI_MIX_MAX][80];
    unsigned nseen = 0;
    memcpy(buf, m->hint, sizeof buf);
    for (char *tok = buf; *tok;) {
        while (*tok == ' ' || *tok == '\t')
            tok++;
        if (!*tok)
            break;
        char *sp = tok + strcspn(tok, " \t"), *next = *sp ? sp + 1 : sp;
        *sp = '\0';
        char *eq = strchr(tok, '='), *end = NULL;
        if (eq)
            *eq = '\0';
        unsigned long long n = eq && eq[1] && eq[1] != '-' ? strtoull(eq + 1, &end, 0) : 0;
        if (!eq || !end || *end || n > UINT32_MAX)
            return mp_fail(p, m->hint_line, "mix [%s]: hint '%s%s%s': wants WORKLOAD=N, N an "
                           "integer from 0 to %u", m->name, tok, eq ? "=" : "", eq ? eq + 1 : "",
                           UINT32_MAX);
        if (!is_label(m, tok))
            return mp_fail(p, m->hint_line, "mix [%s]: hint %s: not one of its workloads",
                           m->name, tok);
        for (unsigned k = 0; k < nseen; k++)
            if (strcmp(seen[k], tok) == 0)
                return mp_fail(p, m->hint_line, "mix [%s]: hint %s given twice", m->name, tok);
        if (nseen < HD_CLI_MIX_MAX) { /* tok is one of the mix's labels: it fits */
            const size_t len = strnlen(tok, sizeof seen[0] - 1);
            memcpy(seen[nseen], tok, len);
            seen[nseen++][len] = '\0';
        }
        tok = next;
    }
    return 0;
}

/* The mix being filled must have all its keys (and a `repeat` naming one of its workloads). */
static int mp_close(struct mix_parser *p)
{
    if (p->out->n == 0)
        return 0;
    const struct hd_cli_mix *m = &p->out->mixes[p->out->n - 1];
    static const char *const names[] = {"workloads", "kind", "why"};
    for (int k = 0; k < 3; k++)
        if (!(p->seen & (1u << k)))
            return mp_fail(p, m->line, "mix [%s] has no '%s' key", m->name, names[k]);
    if (m->repeat[0] && !is_label(m, m->repeat))
        return mp_fail(p, m->repeat_line, "mix [%s]: repeat = %s is not one of its workloads",
                       m->name, m->repeat);
    return mp_hints(p, m);
}

static int mp_section(struct mix_parser *p, char *s)
{
    char *end = strchr(s, ']');
    if (!end || trim(end + 1)[0] != '\0')
        return mp_fail(p, p->line, "a section header is [NAME] alone on its line");
    *end = '\0';
    char *name = trim(s + 1);
    size_t n = strlen(name);
    if (n == 0 || n >= sizeof p->out->mixes[0].name)
        return mp_fail(p, p->line, "a mix name has 1 to %zu characters",
                       sizeof p->out->mixes[0].name - 1);
    for (size_t i = 0; i < n; i++)
        if (!(islower((unsigned char)name[i]) || isdigit((unsigned char)name[i]) ||
              name[i] == '_' || name[i] == '+'))
            return mp_fail(p, p->line, "mix name '%s': only a-z, 0-9, '_' and '+' are allowed",
                           name);
    if (mp_close(p) != 0)
        return -1;
    if (hd_cli_mixes_find(p->out, name))
        return mp_fail(p, p->line, "mix [%s] is defined twice", name);
    if (p->out->n == p->cap) {
        unsigned ncap = p->cap ? 2 * p->cap : 16;
        struct hd_cli_mix *m = realloc(p->out->mixes, ncap * sizeof *m);
        if (!m)
            return mp_fail(p, p->line, "out of memory");
        p->out->mixes = m;
        p->cap = ncap;
    }
    struct hd_cli_mix *m = &p->out->mixes[p->out->n++];
    memset(m, 0, sizeof *m);
    snprintf(m->name, sizeof m->name, "%s", name);
    m->line = p->line;
    p->seen = 0;
    return 0;
}

static int mp_workloads(struct mix_parser *p, struct hd_cli_mix *m, char *v)
{
    for (char *tok = v + strspn(v, " \t"); *tok; tok += strspn(tok, " \t")) {
        size_t n = strcspn(tok, " \t");
        char *next = tok + n + (tok[n] ? 1 : 0);
        tok[n] = '\0';
        if (m->nworkloads == HD_CLI_MIX_MAX)
            return mp_fail(p, p->line, "mix [%s]: at most %d workloads", m->name, HD_CLI_MIX_MAX);
        if (!hd_workload_find(tok))
            return mp_fail(p, p->line, "mix [%s]: unknown workload '%s' (see heddle list)",
                           m->name, tok);
        snprintf(m->workloads[m->nworkloads++], sizeof m->workloads[0], "%s", tok);
        tok = next;
    }
    if (m->nworkloads < 2)
        return mp_fail(p, p->line, "mix [%s]: a mix has 2 to %d workloads", m->name,
                       HD_CLI_MIX_MAX);
    return 0;
}

static int mp_key(struct mix_parser *p, char *s)
{
    char *eq = strchr(s, '=');
    if (!eq)
        return mp_fail(p, p->line, "expected 'key = value', [NAME] or a comment");
    *eq = '\0';
    char *key = trim(s), *v = trim(eq + 1);
    if (p->out->n == 0)
        return mp_fail(p, p->line, "key '%s' before the first [mix]", key);
    struct hd_cli_mix *m = &p->out->mixes[p->out->n - 1];
    unsigned bit = strcmp(key, "workloads") == 0 ? KEY_WORKLOADS
                   : strcmp(key, "kind") == 0    ? KEY_KIND
                   : strcmp(key, "why") == 0     ? KEY_WHY
                   : strcmp(key, "repeat") == 0  ? KEY_REPEAT
                   : strcmp(key, "hint") == 0    ? KEY_HINT
                                                 : 0;
    if (!bit)
        return mp_fail(p, p->line,
                       "mix [%s]: unknown key '%s' (keys: workloads, kind, why, repeat, hint)",
                       m->name, key);
    if (p->seen & bit)
        return mp_fail(p, p->line, "mix [%s]: key '%s' given twice", m->name, key);
    p->seen |= bit;
    if (v[0] == '\0')
        return mp_fail(p, p->line, "mix [%s]: key '%s' has no value", m->name, key);
    if (bit == KEY_WORKLOADS)
        return mp_workloads(p, m, v);
    if (bit == KEY_REPEAT)
        m->repeat_line = p->line;
    if (bit == KEY_HINT)
        m->hint_line = p->line;
    char *dst = bit == KEY_KIND ? m->kind : bit == KEY_WHY ? m->why
                : bit == KEY_HINT ? m->hint : m->repeat;
    size_t cap = bit == KEY_KIND  ? sizeof m->kind
                 : bit == KEY_WHY ? sizeof m->why
                 : bit == KEY_HINT ? sizeof m->hint
                                  : sizeof m->repeat;
    if (strlen(v) >= cap)
        return mp_fail(p, p->line, "mix [%s]: '%s' is longer than %zu characters", m->name, key,
                       cap - 1);
    memcpy(dst, v, strlen(v) + 1);
    return 0;
}

/* Parse mixes from text (named `source` in messages). */
static int hd_cli_mixes_parse(const char *text, size_t len, const char *source,
                              struct hd_cli_mixes *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    snprintf(out->source, sizeof out->source, "%s", source);
    struct mix_parser p = {.source = source, .err = err, .errlen = errlen, .out = out};
    size_t at = 0;
    int rc = 0;
    while (at < len && rc == 0) {
        const char *nl = memchr(text + at, '\n', len - at);
        size_t n = nl ? (size_t)(nl - (text + at)) : len - at;
        p.line++;
        char buf[1024];
        if (n >= sizeof buf) {
            rc = mp_fail(&p, p.line, "line longer than %zu characters", sizeof buf - 1);
            break;
        }
        memcpy(buf, text + at, n);
        buf[n] = '\0';
        at += n + (nl ? 1 : 0);
        char *s = trim(buf);
        if (s[0] == '\0' || s[0] == '#' || s[0] == ';')
            continue;
        rc = s[0] == '[' ? mp_section(&p, s) : mp_key(&p, s);
    }
    if (rc == 0)
        rc = mp_close(&p);
    if (rc == 0 && out->n == 0)
        rc = mp_fail(&p, p.line, "no mixes");
    if (rc != 0)
        hd_cli_mixes_free(out);
    return rc;
}

int hd_cli_mixes_load(const char *path, struct hd_cli_mixes *out, char *err, size_t errlen)
{
    if (!path)
        return hd_cli_mixes_parse((const char *)hd_cli_mixes_ini, hd_cli_mixes_ini_len,
                                  "workloads/mixes.ini", out, err, errlen);
    FILE *f = fopen(path, "rb");
    if (!f) {
        memset(out, 0, sizeof *out);
        snprintf(err, errlen, "%s: cannot read: %s", path, strerror(errno));
        return -1;
    }
    struct stat st;
    if (fstat(fileno(f), &st) == 0 && S_ISDIR(st.st_mode)) {
        fclose(f);
        memset(out, 0, sizeof *out);
        snprintf(err, errlen, "%s: is a directory, not a mixes file", path);
        return -1;
    }
    size_t cap = 1 << 16, len = 0;
    char *text = malloc(cap);
    while (text) {
        size_t got = fread(text + len, 1, cap - len, f);
        len += got;
        if (len < cap)
            break;
        char *t = cap < (1u << 24) ? realloc(text, cap * 2) : NULL;
        if (!t) {
            free(text);
            text = NULL;
            break;
        }
        text = t;
        cap *= 2;
    }
    int bad = ferror(f), e = errno;
    fclose(f);
    if (!text || bad) {
        free(text);
        memset(out, 0, sizeof *out);
        snprintf(err, errlen, "%s: %s%s", path, bad ? "cannot read: " : "too large (16 MB at most)",
                 bad ? strerror(e) : "");
        return -1;
    }
    int rc = hd_cli_mixes_parse(text, len, path, out, err, errlen);
    free(text);
    return rc;
}

const struct hd_cli_mix *hd_cli_mixes_find(const struct hd_cli_mixes *m, const char *name)
{
    for (unsigned i = 0; name && i < m->n; i++)
        if (strcmp(m->mixes[i].name, name) == 0)
            return &m->mixes[i];
    return NULL;
}

void hd_cli_mixes_free(struct hd_cli_mixes *m)
{
    free(m->mixes);
    m->mixes = NULL;
    m->n = 0;
}

/* {==== heddle list --mixes ==== */
int hd_cli_list_mixes(int argc, char **argv)
{
    const char *file = NULL, *v;
    bool names_only = false;
    for (int i = 1; i < argc; i++) {
        int r;
        if (hd_cli_is_help(argv[i])) {
            printf("Usage: heddle list --mixes [--mixes-file FILE] [--names]\n\n"
                   "List the multi-kernel mixes: name, workloads (run concurrently, each as its\n"
                   "own client of one GPU), kind and why. Run one with `heddle run --mix NAME`.\n\n"
                   "Options:\n"
                   "  --mixes-file FILE  read FILE instead of the built-in workloads/mixes.ini\n"
                   "  --names            print only the mix names, one per line\n");
            return HD_CLI_OK;
        }
        if (strcmp(argv[i], "--mixes") == 0)
            continue;
        if (strcmp(argv[i], "--names") == 0) {
            names_only = true;
        } else if ((r = hd_cli_option("list", argc, argv, &i, "--mixes-file", &v)) != 0) {
            if (r < 0)
                return HD_CLI_USAGE;
            file = v;
        } else {
            return hd_cli_usage("list", "unknown argument '%s' with --mixes", argv[i]);
        }
    }
    struct hd_cli_mixes mixes;
    char err[512];
    if (hd_cli_mixes_load(file, &mixes, err, sizeof err) != 0)
        return hd_cli_fail("list", "%s", err);
    int wname = 4, wwl = 9, wkind = 4;
    char wl[HD_CLI_MIX_MAX * 64 + 8];
    for (unsigned i = 0; i < mixes.n; i++) {
        const struct hd_cli_mix *m = &mixes.mixes[i];
        size_t n = 0;
        for (unsigned k = 0; k < m->nworkloads; k++)
            n += strlen(m->workloads[k]) + (k ? 1 : 0);
        wname = (int)strlen(m->name) > wname ? (int)strlen(m->name) : wname;
        wwl = (int)n > wwl ? (int)n : wwl;
        wkind = (int)strlen(m->kind) > wkind ? (int)strlen(m->kind) : wkind;
    }
    if (!names_only)
        printf("%-*s  %-*s  %-*s  %s\n", wname, "MIX", wwl, "WORKLOADS", wkind, "KIND", "WHY");
    for (unsigned i = 0; i < mixes.n; i++) {
        const struct hd_cli_mix *m = &mixes.mixes[i];
        if (names_only) {
            printf("%s\n", m->name);
            continue;
        }
        size_t at = 0;
        wl[0] = '\0';
        for (unsigned k = 0; k < m->nworkloads; k++)
            at += (size_t)snprintf(wl + at, sizeof wl - at, "%s%s", k ? " " : "", m->workloads[k]);
        printf("%-*s  %-*s  %-*s  %s\n", wname, m->name, wwl, wl, wkind, m->kind, m->why);
    }
    if (!names_only)
        printf("(%u mixes from %s; run one with `heddle run --mix NAME`)\n", mixes.n,
               mixes.source);
    hd_cli_mixes_free(&mixes);
    return HD_CLI_OK;
}
/* }==== */
