/* SPDX-License-Identifier: MIT
 * test_ptx_corpus.c - the PTX front end against real nvcc output and against malformed input.
 *
 * Every .ptx in tests/ptx/good (nvcc 13, compute_75, from the .cu files beside them) must all parse, and
 * the IR must agree with facts counted independently from the text with simple line rules that
 * hold for nvcc's layout: kernel names in order, parameters per kernel, declared registers and
 * instructions per file. Every instruction must also print back (hd_ptx_format_instr) as its
 * source line, up to spacing, `+0` offsets and branch-target names.
 * Every .ptx in tests/ptx/bad must fail with exactly the error named on their first line:
 *     // expect: LINE:COL: message fragment
 * Run from the source root (CTest does).
 */
#include <ctype.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ptx_parse.h"
#include "testutil.h"

/* {==== Files ==== */
static char *read_file(const char *path, size_t *len)
{
    FILE *fp = fopen(path, "rb");
    if (!fp)
        return NULL;
    size_t cap = 1 << 16, n = 0;
    char *b = malloc(cap + 1);
    size_t r;
    while (b && (r = fread(b + n, 1, cap - n, fp)) > 0) {
        n += r;
        if (n == cap) {
            char *nb = realloc(b, 2 * cap + 1);
            if (!nb) {
                free(b);
                b = NULL;
                break;
            }
            b = nb;
            cap *= 2;
        }
    }
    fclose(fp);
    if (b)
        b[n] = '\0';
    *len = n;
    return b;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Sorted paths of dir/ *.ptx; returns the count (0 on error). */
static int list_ptx(const char *dir, char ***out)
{
    DIR *d = opendir(dir);
    int n = 0, cap = 0;
    char **v = NULL;
    *out = NULL;
    if (!d)
        return 0;
    for (struct dirent *e; (e = readdir(d)) != NULL;) {
        size_t l = strlen(e->d_name);
        if (l < 5 || strcmp(e->d_name + l - 4, ".ptx") != 0)
            continue;
        if (n == cap) {
            cap = cap ? cap * 2 : 32;
            char **nv = realloc(v, (size_t)cap * sizeof *v);
            if (!nv)
                break;
            v = nv;
        }
        v[n] = malloc(strlen(dir) + l + 2);
        if (!v[n])
            break;
        sprintf(v[n], "%s/%s", dir, e->d_name);
        n++;
    }
    closedir(d);
    if (n)
        qsort(v, (size_t)n, sizeof *v, cmp_str);
    *out = v;
    return n;
}

static void free_list(char **v, int n)
{
    for (int i = 0; i < n; i++)
        free(v[i]);
    free(v);
}
/* }==== */

/* {==== Facts counted from the text ==== */
struct facts {
    int nentries;
    char entries[64][128];
    int entry_params[64];
    long regs, instrs;
};

static const char *skip_ws(const char *s)
{
    while (*s == ' ' || *s == '\t' || *s == '\r' || *s == '\n')
        s++;
    return s;
}

/* Classifies one ';'-free statement: instruction (1) or not (0). Leading braces and labels are
 * skipped; directives start with '.'. */
static int is_instruction(const char *s)
{
    for (;;) {
        s = skip_ws(s);
        if (*s == '{' || *s == '}') {
            s++;
            continue;
        }
        const char *e = s;
        while (isalnum((unsigned char)*e) || *e == '_' || *e == '$')
            e++;
        if (e > s && *skip_ws(e) == ':') {
            s = skip_ws(e) + 1;
            continue;
        }
        break;
    }
    return *s == '@' || isalpha((unsigned char)*s);
}

/* Counts registers declared by a `.reg .type a, b<N>, ...` statement. */
static long count_regs(const char *s)
{
    const char *p = strstr(s, ".reg");
    if (!p)
        return 0;
    p += 4;
    p = skip_ws(p);
    while (*p == '.') /* the type */
        while (*p && *p != ' ' && *p != '\t')
            p++;
    long n = 0;
    for (;;) {
        p = skip_ws(p);
        if (!*p)
            break;
        const char *lt = strchr(p, '<'), *comma = strchr(p, ',');
        if (lt && (!comma || lt < comma))
            n += strtol(lt + 1, NULL, 10);
        else
            n += 1;
        if (!comma)
            break;
        p = comma + 1;
    }
    return n;
}

static void count_facts(char *text, struct facts *f)
{
    memset(f, 0, sizeof *f);
    /* Pass 1, line rules: entries and their parameter lines (nvcc puts one per line). */
    int in_params = -1;
    for (char *line = text; *line;) {
        char *nl = strchr(line, '\n');
        size_t len = nl ? (size_t)(nl - line) : strlen(line);
        char buf[512];
        snprintf(buf, sizeof buf, "%.*s", (int)(len < 511 ? len : 511), line);
        char *ent = strstr(buf, ".entry ");
        if (ent && !strstr(buf, "//") && f->nentries < 64) {
            const char *nm = skip_ws(ent + 7);
            size_t k = strcspn(nm, "( \t");
            snprintf(f->entries[f->nentries], sizeof f->entries[0], "%.*s", (int)k, nm);
            in_params = strchr(nm, ')') ? -1 : f->nentries;
            f->nentries++;
        } else if (in_params >= 0) {
            if (strstr(buf, ".param"))
                f->entry_params[in_params]++;
            if (strchr(buf, ')'))
                in_params = -1;
        }
        line = nl ? nl + 1 : line + len;
    }
    /* Pass 2, statements: text between ';', where .loc/.file lines are skipped, comments cut,
     * and a line holding only a brace ends the statement before it. */
    char *stmt = malloc(strlen(text) + 2);
    size_t n = 0;
    for (char *line = text; *line && stmt;) {
        char *nl = strchr(line, '\n');
        size_t len = nl ? (size_t)(nl - line) : strlen(line);
        const char *t = skip_ws(line);
        bool skip = strncmp(t, ".loc", 4) == 0 || strncmp(t, ".file", 5) == 0;
        bool brace = (*t == '{' || *t == '}') &&
                     (t[1] == '\n' || t[1] == '\0' || t[1] == '\r' || strncmp(t + 1, " //", 3) == 0 ||
                      strncmp(t + 1, "\t//", 3) == 0);
        if (brace) {
            stmt[n] = '\0';
            f->instrs += is_instruction(stmt);
            f->regs += count_regs(stmt);
            n = 0;
        }
        for (size_t i = 0; i < len && !skip && !brace; i++) {
            char c = line[i];
            if (c == '/' && i + 1 < len && line[i + 1] == '/')
                break;
            if (c == ';') {
                stmt[n] = '\0';
                f->instrs += is_instruction(stmt);
                f->regs += count_regs(stmt);
                n = 0;
                continue;
            }
            stmt[n++] = c;
        }
        if (n && !skip && !brace)
            stmt[n++] = ' ';
        stmt[n] = '\0';
        line = nl ? nl + 1 : line + len;
    }
    free(stmt);
}
/* }==== */

/* {==== Format round trip against the source line ==== */
/* Removes blanks, a `+0` offset, comments, leading braces/labels, what follows the first ';',
 * and replaces a branch target with "L". */
static void normalize(const char *in, char *out, size_t cap)
{
    size_t o = 0;
    const char *s = skip_ws(in);
    while (*s == '{')
        s = skip_ws(s + 1);
    for (; *s && *s != ';' && o + 2 < cap; s++) {
        if (s[0] == '/' && s[1] == '/')
            break;
        if (*s == ' ' || *s == '\t' || *s == '\r' || *s == '\n')
            continue;
        if (s[0] == '+' && s[1] == '0' && s[2] == ']')
            s += 2;
        out[o++] = *s;
    }
    out[o] = '\0';
    char *b = strstr(out, "bra");
    if (b && (b == out || b[-1] == '1' || b[-1] == '2' || isdigit((unsigned char)b[-1]) ||
              b[-1] == 'p')) {
        char *e = b + 3;
        if (strncmp(e, ".uni", 4) == 0)
            e += 4;
        strcpy(e, "L");
    }
}

static long compared; /* instructions compared by check_round_trip (reported in main) */

static void check_round_trip(struct hd_test_state *t, const char *path, char *text,
                             const struct hd_module *m)
{
    /* Line starts, for looking up each instruction's source line. */
    size_t nlines = 1;
    for (const char *c = text; *c; c++)
        nlines += *c == '\n';
    const char **lines = malloc(nlines * sizeof *lines);
    if (!lines)
        return;
    size_t k = 0;
    lines[k++] = text;
    for (const char *c = text; *c; c++)
        if (*c == '\n')
            lines[k++] = c + 1;
    int mismatches = 0;
    for (uint32_t fi = 0; fi < m->nfuncs; fi++) {
        const struct hd_func *f = &m->funcs[fi];
        for (uint32_t i = 0; i < f->ninstrs; i++) {
            const struct hd_instr *in = &f->instrs[i];
            if (in->op == HD_OP_CALL || in->line == 0 || in->line > nlines)
                continue;
            char fmt[512], a[512], b[512];
            hd_ptx_format_instr(f, in, fmt, sizeof fmt);
            const char *src = lines[in->line - 1];
            /* The opcode starts at in->col; a guard may precede it on the same line. */
            const char *at = src + in->col - 1;
            while (at > src && at[-1] != '\n' && at[-1] != '{' && at[-1] != ':')
                at--;
            normalize(at, a, sizeof a);
            normalize(fmt, b, sizeof b);
            compared++;
            if (strcmp(a, b) != 0 && mismatches++ < 5)
                fprintf(stderr, "  %s:%u: source '%s'\n      printed '%s'\n", path,
                        (unsigned)in->line, a, b);
        }
    }
    HD_CHECK_U64(t, 0, mismatches);
    free(lines);
}
/* }==== */

/* {==== Cases ==== */
static void check_good_file(struct hd_test_state *t, const char *path)
{
    char err[1024];
    size_t len;
    char *text = read_file(path, &len);
    if (!HD_CHECK(t, text != NULL))
        return;
    struct hd_module *m = hd_ptx_parse(text, len, path, err, sizeof err);
    if (!HD_CHECK(t, m != NULL)) {
        fprintf(stderr, "  %s\n", err);
        free(text);
        return;
    }
    struct facts *fx = malloc(sizeof *fx);
    char *copy = malloc(len + 1);
    if (fx && copy) {
        memcpy(copy, text, len + 1);
        count_facts(copy, fx);
        int entries = 0;
        long regs = 0, instrs = 0;
        for (uint32_t i = 0; i < m->nfuncs; i++) {
            const struct hd_func *f = &m->funcs[i];
            regs += f->nregs;
            instrs += f->ninstrs;
            if (!f->is_entry)
                continue;
            if (entries < fx->nentries) {
                if (!HD_CHECK(t, strcmp(f->name, fx->entries[entries]) == 0))
                    fprintf(stderr, "  %s: kernel %d is '%s', text says '%s'\n", path, entries,
                            f->name, fx->entries[entries]);
                HD_CHECK_U64(t, fx->entry_params[entries], f->nparams);
            }
            entries++;
        }
        if (!HD_CHECK_U64(t, fx->nentries, entries) | !HD_CHECK_U64(t, fx->regs, regs) |
            !HD_CHECK_U64(t, fx->instrs, instrs))
            fprintf(stderr, "  in %s\n", path);
        check_round_trip(t, path, text, m);
    }
    free(fx);
    free(copy);
    hd_ptx_module_free(m);
    free(text);
}

static void check_bad_file(struct hd_test_state *t, const char *path)
{
    char err[1024], want[600];
    size_t len;
    char *text = read_file(path, &len);
    if (!HD_CHECK(t, text != NULL))
        return;
    unsigned line = 0, col = 0;
    int consumed = 0;
    const char *tag = strstr(text, "// expect: ");
    bool has = tag && tag == text && sscanf(tag + 11, "%u:%u: %n", &line, &col, &consumed) == 2;
    if (!HD_CHECK(t, has && consumed > 0)) {
        fprintf(stderr, "  %s: first line must be '// expect: LINE:COL: fragment'\n", path);
        free(text);
        return;
    }
    const char *frag = tag + 11 + consumed;
    size_t flen = strcspn(frag, "\r\n");
    snprintf(want, sizeof want, "%s:%u:%u: error: ", path, line, col);
    struct hd_module *m = hd_ptx_parse(text, len, path, err, sizeof err);
    char fragment[256];
    snprintf(fragment, sizeof fragment, "%.*s", (int)(flen < 255 ? flen : 255), frag);
    bool ok = m == NULL && strncmp(err, want, strlen(want)) == 0 && strstr(err, fragment) &&
              strchr(err, '\n') == NULL;
    if (!HD_CHECK(t, ok))
        fprintf(stderr, "  %s: expected '%s...%s'\n    got '%s'\n", path, want, fragment,
                m ? "(parsed without error)" : err);
    hd_ptx_module_free(m);
    free(text);
}

int main(void)
{
    struct hd_test_state t = {0};
    char **files;
    hd_test_begin(&t, "nvcc output in tests/ptx/good parses and matches the text");
    int n = list_ptx("tests/ptx/good", &files);
    HD_CHECK(&t, n >= 8);
    for (int i = 0; i < n; i++)
        check_good_file(&t, files[i]);
    free_list(files, n);

    hd_test_begin(&t, "workload PTX parses");
    DIR *d = opendir("workloads");
    int wl = 0;
    for (struct dirent *e; d && (e = readdir(d)) != NULL;) {
        if (e->d_name[0] == '.')
            continue;
        char dir[512];
        snprintf(dir, sizeof dir, "workloads/%s", e->d_name);
        int k = list_ptx(dir, &files);
        for (int i = 0; i < k; i++, wl++)
            check_good_file(&t, files[i]);
        free_list(files, k);
    }
    if (d)
        closedir(d);
    printf("%d workload PTX files; %ld instructions printed back as their source\n", wl,
           compared);
    HD_CHECK(&t, compared > 10000);

    hd_test_begin(&t, "malformed PTX in tests/ptx/bad gives exactly the expected error");
    n = list_ptx("tests/ptx/bad", &files);
    HD_CHECK(&t, n >= 20);
    for (int i = 0; i < n; i++)
        check_bad_file(&t, files[i]);
    free_list(files, n);
    return hd_test_finish(&t);
}
/* }==== */
