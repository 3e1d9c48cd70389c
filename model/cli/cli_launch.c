/* SPDX-License-Identifier: MIT
 * cli_launch.c - `heddle launch FILE.ptx KERNEL`: run one kernel without writing a host program.
 *
 * Arguments are given in the kernel's parameter order: scalars (`u32:5`, `f32:1.5`, ...), new
 * device buffers (`buf:NAME:BYTES:FILL`, passed as their device pointer) or pointers into a
 * buffer (`ptr:NAME+OFFSET`). The whole command line is checked before the GPU is created; the
 * runtime then checks the argument sizes against the PTX .param declarations and reports any
 * fault with its kernel, PC, PTX line, thread and address. After the run, buffers can be printed
 * (`--print`), written to files (`--dump`) and compared byte-exactly with a pattern or file
 * (`--expect`, which makes the exit status say whether the kernel computed what was expected).
 */
#include "config.h"
#include "cli_launch.h"

#include "cli_attr.h"
#include "cli_cmd.h"
#include "cli_fill.h"
#include "cli_out.h"
#include "cli_util.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* {==== Launch attributes ==== */
/* --priority P, --arrive CYCLE, --latency-bound CYCLES, --hint N (cli_attr.h: the parser of
 * `run --mix` too). Returns 1 taken, 0 not this option, -1 after a usage message. */
static int attr_option(const char *cmd, int argc, char **argv, int *i, struct hd_launch_attr *a)
{
    static const char *const names[] = {"--priority", "--arrive", "--latency-bound", "--hint"};
    for (unsigned k = 0; k < 4; k++) {
        const char *v;
        int r = hd_cli_option(cmd, argc, argv, i, names[k], &v);
        if (r == 0)
            continue;
        if (r < 0)
            return -1;
        uint64_t n = 0;
        if (k == 0)
            r = hd_cli_parse_priority(cmd, names[k], v, &a->priority);
        else if (k < 3)
            r = hd_cli_parse_cycles(cmd, names[k], v, 0, k == 1 ? &a->arrive_cycle
                                                                : &a->latency_bound);
        else if ((r = hd_cli_parse_uint(v, 0, UINT32_MAX, &n)) != 0)
            hd_cli_usage(cmd, "--hint '%s': wants an integer from 0 to %u", v, UINT32_MAX);
        else
            a->hint = (uint32_t)n;
        return r == 0 ? 1 : -1;
    }
    return 0;
}
/* }==== */

/* {==== Command line ==== */
static void launch_help(FILE *out)
{
    fprintf(out,
        "Usage: heddle launch FILE.ptx KERNEL --grid X[,Y[,Z]] --block X[,Y[,Z]]\n"
        "                     [--shared BYTES] [--regs N] [--arg SPEC]... [--config FILE]\n"
        "                     [--set S.K=V]...\n"
        "                     [--print NAME:TYPE:N]... [--dump NAME:PATH]... [--expect NAME:FILL]...\n"
        "\n"
        "Run one kernel of a PTX file on the simulated GPU without a host program.\n"
        "\n"
        "Options:\n"
        "  --grid X,Y,Z     CTAs in the grid (missing dimensions are 1)\n"
        "  --block X,Y,Z    threads per CTA\n"
        "  --shared BYTES   dynamic shared memory per CTA (extern .shared), default 0\n"
        "  --regs N         registers per thread that occupancy counts for KERNEL (1 ..\n"
        "                   [sm] max_regs_per_thread); default: ptxas's from FILE.ptxas.txt\n"
        "                   beside the PTX (lines kernel=K registers=R ...), else Heddle's\n"
        "                   register allocator's, with a warning ([sm] regs_source)\n"
        "  --priority P, --arrive CYCLE, --latency-bound CYCLES, --hint N\n"
        "                   launch attributes (docs/context.md); default 0 each; P from\n"
        "                   -1000000 to 1000000, cycles up to 10^15, N up to 2^32-1\n"
        "  --arg SPEC       the next kernel argument, in parameter order:\n"
        "      u8:V s8:V u16:V s16:V u32:V s32:V u64:V s64:V   integers (decimal or 0x hex)\n"
        "      f32:V f64:V                                     floating point\n"
        "      buf:NAME:BYTES:FILL   a new device buffer of BYTES (K/M/G suffixes allowed),\n"
        "                            passed as its device pointer. FILL is one of\n"
        "                              zero               all bytes 0\n"
        "                              seq-u32, seq-f32   0, 1, 2, ... as u32 / as f32\n"
        "                              rand-u32:SEED      uniform 32-bit integers\n"
        "                              rand-f32:SEED      uniform floats in [0, 1)\n"
        "                              const-u32:V, const-f32:V   every element V\n"
        "                              file:PATH          the file's bytes, rest zero\n"
        "      ptr:NAME[+OFFSET]     the device address of buffer NAME (plus OFFSET bytes)\n"
        "  --print NAME:TYPE:N   after the run, print the first N elements of a buffer;\n"
        "                        TYPE is u8 s8 x8 u16 s16 x16 u32 s32 x32 f32 u64 s64 x64 f64\n"
        "  --dump NAME:PATH      after the run, write the buffer's bytes to PATH\n"
        "  --expect NAME:FILL    after the run, the buffer must equal FILL byte for byte\n"
        "                        (exit status 1 and the first difference otherwise)\n"
        "  --config FILE         GPU configuration (default: built-in fermi-gtx480)\n"
        "  --set SECTION.KEY=V   override one configuration parameter (repeatable)\n"
        "  --max-cycles N, --max-instructions N   stop there with a located report (exit 1)\n"
        "\n"
        "Example (vector add, c = a + b over 1024 floats):\n"
        "  heddle launch workloads/vecadd/vecadd.ptx vecadd --grid 4 --block 256 \\\n"
        "      --arg buf:a:4K:seq-f32 --arg buf:b:4K:const-f32:0.5 --arg buf:c:4K:zero \\\n"
        "      --arg s32:1024 --print c:f32:8 --dump c:c.bin\n"
        "\nExit status: 0 the kernel completed (and every --expect held), 1 an error or a\n"
        "mismatch, 2 a bad command line, 130 interrupted.\n");
}

static int find_buf(const struct hd_launch *l, const char *name, size_t len)
{
    for (unsigned b = 0; b < l->nbufs; b++)
        if (strlen(l->bufs[b].name) == len && strncmp(l->bufs[b].name, name, len) == 0)
            return (int)b;
    return -1;
}

static int parse_scalar(const char *type, const char *v, struct hd_launch_arg *a)
{
    static const char *const ints[] = {"u8", "s8", "u16", "s16", "u32", "s32", "u64", "s64"};
    static const size_t isz[] = {1, 1, 2, 2, 4, 4, 8, 8};
    char *end;
    errno = 0;
    if (strcmp(type, "f32") == 0 || strcmp(type, "f64") == 0) {
        double d = strtod(v, &end);
        if (end == v || *end)
            return -1;
        if (type[1] == '3') {
            float f = (float)d;
            memcpy(a->bytes, &f, 4);
            a->size = 4;
        } else {
            memcpy(a->bytes, &d, 8);
            a->size = 8;
        }
        return 0;
    }
    for (size_t k = 0; k < sizeof isz / sizeof isz[0]; k++) {
        if (strcmp(type, ints[k]) != 0)
            continue;
        uint64_t bits;
        unsigned width = (unsigned)(8 * isz[k]);
        if (type[0] == 's') {
            long long s = strtoll(v, &end, 0);
            if (end == v || *end || errno)
                return -1;
            if (width < 64 && (s < -(1ll << (width - 1)) || s >= (1ll << (width - 1))))
                return -1;
            bits = (uint64_t)s;
        } else {
            if (v[0] == '-' || hd_config_parse_uint(v, &bits) != 0)
                return -1;
            if (width < 64 && bits >> width)
                return -1;
        }
        for (size_t i = 0; i < isz[k]; i++)
            a->bytes[i] = (uint8_t)(bits >> (8 * i));
        a->size = isz[k];
        return 0;
    }
    return -2; /* unknown type */
}

static int add_buffer(struct hd_launch *l, const char *spec)
{
    /* buf:NAME:BYTES:FILL */
    const char *name = spec + 4, *c1 = strchr(name, ':');
    const char *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
    if (!c1 || !c2 || c1 == name)
        return hd_cli_usage("launch", "--arg %s: expected buf:NAME:BYTES:FILL", spec);
    char bytes_txt[32];
    size_t bl = (size_t)(c2 - c1 - 1);
    if (bl == 0 || bl >= sizeof bytes_txt)
        return hd_cli_usage("launch", "--arg %s: bad buffer size", spec);
    memcpy(bytes_txt, c1 + 1, bl);
    bytes_txt[bl] = '\0';
    struct hd_launch_buf *b = &l->bufs[l->nbufs];
    if (hd_config_parse_uint(bytes_txt, &b->bytes) != 0 || b->bytes == 0)
        return hd_cli_usage("launch", "--arg %s: buffer size '%s' is not a positive byte count",
                            spec, bytes_txt);
    for (const char *p = name; p < c1; p++)
        if (*p == '+' || *p == ' ')
            return hd_cli_usage("launch", "--arg %s: a buffer name has no '+' or spaces", spec);
    if (find_buf(l, name, (size_t)(c1 - name)) >= 0)
        return hd_cli_usage("launch", "--arg %s: buffer '%.*s' is defined twice", spec,
                            (int)(c1 - name), name);
    char err[256];
    if (hd_cli_fill_check(c2 + 1, b->bytes, err, sizeof err) != 0)
        return hd_cli_usage("launch", "--arg %s: %s", spec, err);
    char *nm = malloc((size_t)(c1 - name) + 1);
    if (!nm)
        return hd_cli_fail("launch", "out of memory");
    memcpy(nm, name, (size_t)(c1 - name));
    nm[c1 - name] = '\0';
    b->name = nm;
    b->fill = c2 + 1;
    struct hd_launch_arg *a = &l->args[l->nargs++];
    a->buf = (int)l->nbufs++;
    a->size = 8;
    return 0;
}

static int add_arg(struct hd_launch *l, const char *spec)
{
    const char *colon = strchr(spec, ':');
    if (!colon)
        return hd_cli_usage("launch", "--arg %s: expected TYPE:VALUE, buf:... or ptr:...", spec);
    if (strncmp(spec, "buf:", 4) == 0)
        return add_buffer(l, spec);
    struct hd_launch_arg *a = &l->args[l->nargs];
    memset(a, 0, sizeof *a);
    a->buf = -1;
    if (strncmp(spec, "ptr:", 4) == 0) {
        a->buf = -2; /* resolved after every buffer is known */
        a->size = 8;
        l->nargs++;
        return 0;
    }
    char type[8];
    size_t tl = (size_t)(colon - spec);
    if (tl >= sizeof type)
        return hd_cli_usage("launch", "--arg %s: unknown argument type", spec);
    memcpy(type, spec, tl);
    type[tl] = '\0';
    int r = parse_scalar(type, colon + 1, a);
    if (r == -2)
        return hd_cli_usage("launch", "--arg %s: unknown type '%s' (u8 s8 u16 s16 u32 s32 u64 "
                                      "s64 f32 f64, buf, ptr)", spec, type);
    if (r != 0)
        return hd_cli_usage("launch", "--arg %s: '%s' is not a valid %s", spec, colon + 1, type);
    l->nargs++;
    return 0;
}

/* ptr:NAME[+OFFSET] once all buffers are known (spec order = argument order). */
static int resolve_ptrs(struct hd_launch *l, const char *const *specs)
{
    for (unsigned i = 0; i < l->nargs; i++) {
        if (l->args[i].buf != -2)
            continue;
        const char *name = specs[i] + 4, *plus = strchr(name, '+');
        size_t len = plus ? (size_t)(plus - name) : strlen(name);
        int b = find_buf(l, name, len);
        if (b < 0)
            return hd_cli_usage("launch", "--arg %s: no buffer named '%.*s'", specs[i], (int)len,
                                name);
        l->args[i].buf = b;
        if (plus && (hd_config_parse_uint(plus + 1, &l->args[i].offset) != 0 ||
                     l->args[i].offset > l->bufs[b].bytes))
            return hd_cli_usage("launch", "--arg %s: bad offset (buffer '%s' has %" PRIu64
                                " bytes)", specs[i], l->bufs[b].name, l->bufs[b].bytes);
    }
    return 0;
}

static int add_post(struct hd_launch *l, char kind, const char *spec)
{
    const char *opt = kind == 'p' ? "--print" : kind == 'd' ? "--dump" : "--expect";
    const char *c1 = strchr(spec, ':');
    int b = c1 ? find_buf(l, spec, (size_t)(c1 - spec)) : -1;
    if (!c1 || !c1[1])
        return hd_cli_usage("launch", "%s %s: expected NAME:%s", opt, spec,
                            kind == 'p' ? "TYPE:N" : kind == 'd' ? "PATH" : "FILL");
    if (b < 0)
        return hd_cli_usage("launch", "%s %s: no buffer named '%.*s'", opt, spec,
                            (int)(c1 - spec), spec);
    struct hd_launch_post *p = &l->posts[l->nposts];
    memset(p, 0, sizeof *p);
    p->kind = kind;
    p->buf = b;
    if (kind == 'd') {
        p->path = c1 + 1;
    } else if (kind == 'e') {
        char err[256];
        p->fill = c1 + 1;
        if (hd_cli_fill_check(p->fill, l->bufs[b].bytes, err, sizeof err) != 0)
            return hd_cli_usage("launch", "--expect %s: %s", spec, err);
    } else {
        static char types[][4] = {"u8", "s8", "x8", "u16", "s16", "x16", "u32", "s32", "x32",
                                  "f32", "u64", "s64", "x64", "f64"};
        const char *c2 = strchr(c1 + 1, ':');
        size_t tl = c2 ? (size_t)(c2 - c1 - 1) : 0;
        for (size_t k = 0; k < sizeof types / sizeof types[0] && !p->type; k++)
            if (tl == strlen(types[k]) && strncmp(c1 + 1, types[k], tl) == 0)
                p->type = types[k];
        if (!p->type)
            return hd_cli_usage("launch", "--print %s: expected NAME:TYPE:N with TYPE one of u8 "
                                          "s8 x8 u16 s16 x16 u32 s32 x32 f32 u64 s64 x64 f64", spec);
        if (hd_config_parse_uint(c2 + 1, &p->count) != 0)
            return hd_cli_usage("launch", "--print %s: N must be a count", spec);
        uint64_t max = l->bufs[b].bytes / hd_cli_elem_size(p->type);
        if (p->count > max)
            return hd_cli_usage("launch", "--print %s: buffer '%s' holds %" PRIu64 " %s "
                                "element%s (%" PRIu64 " bytes), not %" PRIu64, spec,
                                l->bufs[b].name, max, p->type, max == 1 ? "" : "s",
                                l->bufs[b].bytes, p->count);
    }
    l->nposts++;
    return 0;
}

/* No --dump may overwrite the PTX file, the configuration, a file: fill or another --dump. */
static int check_paths(struct hd_launch *l)
{
    struct hd_cli_path *paths = calloc((size_t)l->nbufs + l->nposts + 2, sizeof *paths);
    if (!paths)
        return hd_cli_fail("launch", "out of memory");
    unsigned n = 0;
    paths[n++] = (struct hd_cli_path){"PTX file", l->ptx, false};
    if (l->cfg.path)
        paths[n++] = (struct hd_cli_path){"--config", l->cfg.path, false};
    for (unsigned b = 0; b < l->nbufs; b++)
        if (strncmp(l->bufs[b].fill, "file:", 5) == 0)
            paths[n++] = (struct hd_cli_path){"file: fill", l->bufs[b].fill + 5, false};
    for (unsigned k = 0; k < l->nposts; k++) {
        const struct hd_launch_post *p = &l->posts[k];
        if (p->kind == 'e' && strncmp(p->fill, "file:", 5) == 0)
            paths[n++] = (struct hd_cli_path){"--expect", p->fill + 5, false};
        else if (p->kind == 'd')
            paths[n++] = (struct hd_cli_path){"--dump", p->path, true};
    }
    hd_cli_config_outputs(&l->cfg, paths, n);
    int rc = hd_cli_paths_check("launch", paths, n);
    free(paths);
    return rc;
}

/* --print/--dump/--expect, as "--opt" or "--opt=value" */
static bool is_post_option(const char *a)
{
    static const char *const names[] = {"--print", "--dump", "--expect"};
    for (size_t k = 0; k < 3; k++) {
        size_t n = strlen(names[k]);
        if (strncmp(a, names[k], n) == 0 && (a[n] == '\0' || a[n] == '='))
            return true;
    }
    return false;
}

/* Returns 0, 1 (help printed) or an exit code + 2. */
static int parse_cmdline(int argc, char **argv, struct hd_launch *l, const char **argspecs)
{
    const char *cmd = "launch";
    int npos = 0;
    /* pass 1: everything but the post-run options (which name buffers) */
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v;
        int r;
        if (hd_cli_is_help(a)) {
            launch_help(stdout);
            return 1;
        }
        if ((r = hd_cli_option(cmd, argc, argv, &i, "--grid", &v)) != 0) {
            if (r < 0 || hd_cli_parse_dim3(v, &l->grid) != 0)
                return (r < 0 ? HD_CLI_USAGE
                              : hd_cli_usage(cmd, "--grid wants X[,Y[,Z]] of positive integers, "
                                                  "not '%s'", v)) + 2;
            l->have_grid = true;
        } else if ((r = hd_cli_option(cmd, argc, argv, &i, "--block", &v)) != 0) {
            if (r < 0 || hd_cli_parse_dim3(v, &l->block) != 0)
                return (r < 0 ? HD_CLI_USAGE
                              : hd_cli_usage(cmd, "--block wants X[,Y[,Z]] of positive "
                                                  "integers, not '%s'", v)) + 2;
            l->have_block = true;
        } else if ((r = hd_cli_option(cmd, argc, argv, &i, "--shared", &v)) != 0) {
            if (r < 0 || hd_cli_parse_u32(v, &l->shared) != 0)
                return (r < 0 ? HD_CLI_USAGE
                              : hd_cli_usage(cmd, "--shared wants a byte count, not '%s'", v)) + 2;
        } else if ((r = hd_cli_option(cmd, argc, argv, &i, "--regs", &v)) != 0) {
            char *end = NULL;
            errno = 0;
            l->regs = r < 0 ? 0 : strtoll(v, &end, 10);
            if (r < 0 || !end || end == v || *end || errno)
                return (r < 0 ? HD_CLI_USAGE
                              : hd_cli_usage(cmd, "--regs wants a register count, not '%s'",
                                             v)) + 2;
            l->have_regs = true; /* 1 .. the configuration's limit: checked once it is known */
        } else if ((r = attr_option(cmd, argc, argv, &i, &l->attr)) != 0) {
            if (r < 0)
                return HD_CLI_USAGE + 2;
        } else if ((r = hd_cli_config_option(cmd, argc, argv, &i, &l->cfg)) != 0) {
            if (r < 0)
                return HD_CLI_USAGE + 2;
        } else if ((r = hd_cli_option(cmd, argc, argv, &i, "--arg", &v)) != 0) {
            if (r < 0)
                return HD_CLI_USAGE + 2;
            argspecs[l->nargs] = v;
            if ((r = add_arg(l, v)) != 0)
                return r + 2;
        } else if (is_post_option(a)) {
            if (!strchr(a, '='))
                i++; /* its value; handled in pass 2 */
        } else if (a[0] == '-' && a[1]) {
            return hd_cli_usage(cmd, "unknown option '%s'", a) + 2;
        } else if (npos == 0) {
            l->ptx = a, npos++;
        } else if (npos == 1) {
            l->kernel = a, npos++;
        } else {
            return hd_cli_usage(cmd, "unexpected argument '%s' (kernel arguments go in --arg)",
                                a) + 2;
        }
    }
    if (!l->ptx || !l->kernel)
        return hd_cli_usage(cmd, "expected FILE.ptx and KERNEL") + 2;
    if (!l->have_grid || !l->have_block)
        return hd_cli_usage(cmd, "--grid and --block are required") + 2;
    int r = resolve_ptrs(l, argspecs);
    if (r != 0)
        return r + 2;
    /* pass 2: --print / --dump / --expect */
    for (int i = 1; i < argc; i++) {
        const char *v;
        static const struct { const char *opt; char kind; } posts[] = {
            {"--print", 'p'}, {"--dump", 'd'}, {"--expect", 'e'}};
        for (size_t k = 0; k < 3; k++) {
            int o = hd_cli_option(cmd, argc, argv, &i, posts[k].opt, &v);
            if (o < 0)
                return HD_CLI_USAGE + 2;
            if (o > 0 && (r = add_post(l, posts[k].kind, v)) != 0)
                return r + 2;
            if (o > 0)
                break;
        }
    }
    return check_paths(l) == HD_CLI_OK ? 0 : HD_CLI_USAGE + 2;
}
/* }==== */

int hd_cli_launch(int argc, char **argv)
{
    struct hd_launch l;
    memset(&l, 0, sizeof l);
    size_t n = (size_t)argc + 1;
    l.bufs = calloc(n, sizeof *l.bufs);
    l.args = calloc(n, sizeof *l.args);
    l.posts = calloc(n, sizeof *l.posts);
    const char **specs = calloc(n, sizeof *specs);
    const char **sets = calloc(n, sizeof *sets);
    l.cfg.sets = sets;
    int rc;
    if (!l.bufs || !l.args || !l.posts || !specs || !sets) {
        rc = hd_cli_fail("launch", "out of memory");
    } else {
        rc = parse_cmdline(argc, argv, &l, specs);
        if (rc == 1)
            rc = HD_CLI_OK;
        else if (rc != 0)
            rc -= 2;
        else
            rc = hd_cli_launch_execute(&l);
    }
    for (unsigned b = 0; l.bufs && b < l.nbufs; b++)
        free((char *)l.bufs[b].name);
    free(l.bufs);
    free(l.args);
    free(l.posts);
    free(specs);
    free(sets);
    return rc;
}
