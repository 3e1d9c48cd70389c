/* SPDX-License-Identifier: MIT
 * cli_mix.c - `heddle run --mix NAME`: run the workloads of a mix (workloads/mixes.ini)
 * concurrently on one GPU, each host driver verifying its own output; optionally (--alone) run
 * each of them alone first, for slowdowns, STP and ANTT. Reports: cli_mix_report.c.
 *
 * Design: every driver becomes a client of one GPU through hd_gpu_run_clients
 * (model/runtime/heddle_mix.h): it runs unchanged, with its own streams, errors and totals,
 * while the runtime interleaves the drivers deterministically and runs their queued launches
 * together as batches (overlapping on the SMs in the timing model, the default). Each driver's
 * progress messages go to a memory stream and are printed afterwards, prefixed with the
 * workload's name, so the output does not depend on the interleaving. A kernel observer
 * aggregates the completed launches per workload and kernel and records which stream belongs to
 * which workload; in cycle mode the timing model's per-launch records (by stream) add cycles per
 * kernel and each workload's turnaround (the end of its last launch; the mix starts at cycle 0).
 * Exit 0 only when every workload verified (in the mix and, with --alone, alone); 130 after
 * Ctrl-C; 1 otherwise.
 */
#define _POSIX_C_SOURCE 200809L /* open_memstream */

#include "cli_attr.h"
#include "cli_mix_run.h"
#include "cli_out.h"
#include "cli_util.h"
#include "config.h"
#include "heddle_mix.h"
#include "heddle_observe.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void mix_help(FILE *out)
{
    fprintf(out,
            "Usage: heddle run --mix NAME [--size small|medium|large] [--config FILE]\n"
            "                  [--set SECTION.KEY=VALUE]... [--functional] [--alone]\n"
            "                  [--mixes-file FILE] [--stats FILE] [--profile-out FILE] [--quiet]\n"
            "                  [--arrive WORKLOAD@CYCLE[:PRIORITY]]... [--hint WORKLOAD=N]...\n"
            "                  [--repeat WORKLOAD [--repeat-until CYCLES]]\n"
            "\n"
            "Run the workloads of a multi-kernel mix (see `heddle list --mixes`) concurrently on\n"
            "one simulated GPU. Each host driver is a client with its own streams; the drivers\n"
            "run as cooperative coroutines in a fixed order, and whenever all of them wait, the\n"
            "GPU runs every queued launch of every client as one batch, in which the timing\n"
            "model overlaps launches of different clients on the SMs. Each workload checks its\n"
            "own output; the exit status is 0 only if all of them verified.\n"
            "\n"
            "Options:\n"
            "  --mix NAME         the mix (a [section] of workloads/mixes.ini)\n"
            "  --size S           input size of every workload: small (default), medium, large\n"
            "  --config FILE      GPU configuration (default: built-in fermi-gtx480)\n"
            "  --set S.K=V        override one configuration parameter (repeatable)\n"
            "  --max-cycles N, --max-instructions N   stop there with a located report\n"
            "  --functional       functional model only (no cycles; kernels run one by one)\n"
            "  --alone            first run each workload alone on the same configuration and\n"
            "                     report its slowdown in the mix, STP and ANTT (cycle mode)\n"
            "  --mixes-file FILE  read the mixes from FILE instead of the built-in mixes.ini\n"
            "  --stats FILE       also write the summary as an INI report, configuration first\n"
            "  --profile-out FILE every finished CTA's warp instructions and cycles in this run\n"
            "                     (the Oracle's profile from a first pass of the same run)\n"
            "                     (FILE.json: the same report as JSON)\n"
            "  --quiet            do not print the drivers' progress messages\n"
            "  --arrive W@C[:P]   workload W's launches arrive at GPU cycle C with priority P\n"
            "  --hint W=N         workload W's launches carry the hint N (docs/admission.md)\n"
            "                     (default 0); a higher priority preempts lower ones by\n"
            "                     [context] preempt (switch, drain, flush; docs/context.md)\n"
            "  --repeat W         open-ended co-running: run workload W again each time it\n"
            "                     finishes while another workload of the mix still runs (its\n"
            "                     launches join the running GPU; every instance verifies its\n"
            "                     output); default: the mix's `repeat` key; `all`: every\n"
            "                     workload repeats until the budget (needs --repeat-until)\n"
            "  --repeat-until C   start no new instance of the repeated workload at or after\n"
            "                     GPU cycle C (a co-running cycle budget)\n"
            "\nExamples:\n"
            "  heddle run --mix sgemm+vecadd --alone\n"
            "  heddle run --mix bfs+sgemm --size medium --stats mix.ini\n"
            "  heddle run --mix persistent+vecadd --arrive vecadd@20000:1\n"
            "  heddle run --mix sgemm+vecadd --repeat vecadd --repeat-until 15000\n");
}

bool hd_cli_mix_requested(int argc, char **argv)
{
    for (int i = 1; i < argc; i++)
        if (strcmp(argv[i], "--mix") == 0 || strncmp(argv[i], "--mix=", 6) == 0)
            return true;
    return false;
}

/* WORKLOAD@CYCLE[:PRIORITY] into o->arrive (cli_attr.h: the parser of `launch` too); one per
 * workload. Returns 0 or HD_CLI_USAGE after a message. */
static int parse_arrival(const char *cmd, const char *v, struct mix_opts *o)
{
    size_t len;
    uint64_t cyc;
    int32_t prio;
    if (hd_cli_parse_arrival(cmd, v, &len, &cyc, &prio) != 0)
        return HD_CLI_USAGE;
    if (o->narrive == HD_CLI_MIX_ARRIVALS)
        return hd_cli_usage(cmd, "at most %d --arrive options", HD_CLI_MIX_ARRIVALS);
    for (unsigned k = 0; k < o->narrive; k++)
        if (strncmp(o->arrive[k].label, v, len + 1) == 0) /* the same label and its '@' */
            return hd_cli_usage(cmd, "--arrive '%s': workload %.*s already arrives by --arrive "
                                "'%s' (one --arrive per workload)", v, (int)len, v,
                                o->arrive[k].label);
    struct mix_arrival *a = &o->arrive[o->narrive++];
    a->label = v;
    a->cycle = cyc;
    a->priority = prio;
    return 0;
}

/* --hint WORKLOAD=N into o->hint; one per workload. 0 or HD_CLI_USAGE after a message. */
static int parse_hint(const char *cmd, const char *v, struct mix_opts *o)
{
    const char *eq = strchr(v, '=');
    uint64_t n;
    if (!eq || eq == v || hd_cli_parse_uint(eq + 1, 0, UINT32_MAX, &n) != 0)
        return hd_cli_usage(cmd, "--hint '%s': wants WORKLOAD=N, N an integer from 0 to %u", v,
                            UINT32_MAX);
    if (o->nhint == HD_CLI_MIX_ARRIVALS)
        return hd_cli_usage(cmd, "at most %d --hint options", HD_CLI_MIX_ARRIVALS);
    for (unsigned k = 0; k < o->nhint; k++)
        if (strncmp(o->hint[k], v, (size_t)(eq - v) + 1) == 0)
            return hd_cli_usage(cmd, "--hint '%s': workload %.*s has a hint already ('%s')", v,
                                (int)(eq - v), v, o->hint[k]);
    o->hint[o->nhint] = v;
    o->hint_val[o->nhint++] = (uint32_t)n;
    return 0;
}

/* The mix's `hint = W=N ...` key (checked when the mixes were read, cli_mixes.c). */
static void apply_mix_hints(const struct hd_cli_mix *m, struct mix_client *cl, unsigned n)
{
    for (const char *tok = m->hint; *tok;) {
        tok += strspn(tok, " \t");
        const size_t len = strcspn(tok, " \t");
        const char *eq = memchr(tok, '=', len);
        if (!len || !eq)
            break;
        const uint32_t v = (uint32_t)strtoull(eq + 1, NULL, 0);
        const size_t wl = (size_t)(eq - tok);
        for (unsigned i = 0; i < n; i++)
            if (strncmp(cl[i].label, tok, wl) == 0 && cl[i].label[wl] == '\0')
                cl[i].attr.hint = v;
        tok += len;
    }
}

/* Give client c the attributes of its --arrive and --hint options (matched by label). */
static int apply_arrivals(const struct mix_opts *o, struct mix_client *cl, unsigned n)
{
    for (unsigned k = 0; k < o->nhint; k++) {
        const size_t len = (size_t)(strchr(o->hint[k], '=') - o->hint[k]);
        bool found = false;
        for (unsigned i = 0; i < n && !found; i++)
            if (strlen(cl[i].label) == len && strncmp(cl[i].label, o->hint[k], len) == 0) {
                cl[i].attr.hint = o->hint_val[k];
                found = true;
            }
        if (!found)
            return hd_cli_usage("run", "--hint '%s': no workload of that name in the mix",
                                o->hint[k]);
    }
    for (unsigned k = 0; k < o->narrive; k++) {
        const struct mix_arrival *a = &o->arrive[k];
        const size_t len = (size_t)(strchr(a->label, '@') - a->label);
        bool found = false;
        for (unsigned i = 0; i < n && !found; i++)
            if (strlen(cl[i].label) == len && strncmp(cl[i].label, a->label, len) == 0) {
                cl[i].attr.arrive_cycle = a->cycle;
                cl[i].attr.priority = a->priority;
                found = true;
            }
        if (!found)
            return hd_cli_usage("run", "--arrive '%s': no workload of that name in the mix",
                                a->label);
    }
    return 0;
}

/* 0 ok, 1 help printed, or an exit code + 2 */
static int parse_args(int argc, char **argv, struct mix_opts *o)
{
    const char *cmd = "run";
    for (int i = 1; i < argc; i++)
        if (hd_cli_is_help(argv[i])) { /* also `--mix --help` */
            mix_help(stdout);
            return 1;
        }
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v;
        int r;
        if ((r = hd_cli_config_option(cmd, argc, argv, &i, &o->cfg)) != 0) {
            if (r < 0)
                return HD_CLI_USAGE + 2;
        } else if ((r = hd_cli_option(cmd, argc, argv, &i, "--mix", &v)) != 0) {
            if (r < 0)
                return HD_CLI_USAGE + 2;
            if (o->mix)
                return hd_cli_usage(cmd, "one mix at a time ('%s' and '%s')", o->mix, v) + 2;
            o->mix = v;
        } else if ((r = hd_cli_option(cmd, argc, argv, &i, "--mixes-file", &v)) != 0) {
            if (r < 0)
                return HD_CLI_USAGE + 2;
            o->mixes_file = v;
        } else if ((r = hd_cli_option(cmd, argc, argv, &i, "--size", &v)) != 0) {
            if (r < 0)
                return HD_CLI_USAGE + 2;
            if (hd_wl_size_parse(v, &o->size) != 0)
                return hd_cli_usage(cmd, "--size must be small, medium or large (or paper, "
                                         "waves, waves3), "
                                         "not '%s'", v) + 2;
            o->paper = strcmp(v, "paper") == 0;
            o->waves3 = strcmp(v, "waves3") == 0;
            o->waves = o->waves3 || strcmp(v, "waves") == 0;
        } else if ((r = hd_cli_option(cmd, argc, argv, &i, "--arrive", &v)) != 0) {
            if (r < 0)
                return HD_CLI_USAGE + 2;
            if (parse_arrival(cmd, v, o) != 0)
                return HD_CLI_USAGE + 2;
        } else if ((r = hd_cli_option(cmd, argc, argv, &i, "--hint", &v)) != 0) {
            if (r < 0 || parse_hint(cmd, v, o) != 0)
                return HD_CLI_USAGE + 2;
        } else if ((r = hd_cli_option(cmd, argc, argv, &i, "--repeat", &v)) != 0) {
            if (r < 0)
                return HD_CLI_USAGE + 2;
            if (o->repeat)
                return hd_cli_usage(cmd, "one --repeat at a time ('%s' and '%s')", o->repeat, v) +
                       2;
            o->repeat = v;
        } else if ((r = hd_cli_option(cmd, argc, argv, &i, "--repeat-until", &v)) != 0) {
            if (r < 0 || hd_cli_parse_cycles(cmd, "--repeat-until", v, 1, &o->repeat_until))
                return HD_CLI_USAGE + 2;
        } else if ((r = hd_cli_option(cmd, argc, argv, &i, "--stats", &v)) != 0) {
            if (r < 0)
                return HD_CLI_USAGE + 2;
            o->stats = v;
        } else if ((r = hd_cli_option(cmd, argc, argv, &i, "--profile-out", &v)) != 0) {
            if (r < 0)
                return HD_CLI_USAGE + 2;
            o->profile = v;
        } else if (strcmp(a, "--quiet") == 0 || strcmp(a, "-q") == 0) {
            o->quiet = true;
        } else if (strcmp(a, "--functional") == 0) {
            o->functional = true;
        } else if (strcmp(a, "--alone") == 0) {
            o->alone = true;
        } else if (a[0] == '-') {
            return hd_cli_usage(cmd, "unknown option '%s' with --mix", a) + 2;
        } else {
            return hd_cli_usage(cmd, "--mix runs the workloads of the mix; '%s' is not expected "
                                     "(see heddle list --mixes)", a) + 2;
        }
    }
    if (o->alone && o->functional)
        return hd_cli_usage(cmd, "--alone compares cycles: it does not go with --functional") + 2;
    if (o->profile && o->functional)
        return hd_cli_usage(cmd, "--profile-out needs the timing model, not --functional") + 2;
    struct hd_cli_path paths[4];
    unsigned n = 0;
    if (o->cfg.path)
        paths[n++] = (struct hd_cli_path){"--config", o->cfg.path, false};
    if (o->mixes_file)
        paths[n++] = (struct hd_cli_path){"--mixes-file", o->mixes_file, false};
    if (o->stats)
        paths[n++] = (struct hd_cli_path){"--stats", o->stats, true};
    if (o->profile)
        paths[n++] = (struct hd_cli_path){"--profile-out", o->profile, true};
    hd_cli_config_outputs(&o->cfg, paths, n);
    if (hd_cli_paths_check(cmd, paths, n) != HD_CLI_OK)
        return HD_CLI_USAGE + 2;
    return 0;
}

/* {==== One run of clients on a new GPU ==== */
static int mix_body(struct hd_gpu *client, void *arg)
{
    struct mix_client *c = arg;
    hd_set_launch_attr(client, &c->attr);
    int st = c->rep.on ? hd_cli_mix_repeat_body(client, c) : c->w->run(client, &c->ctx);
    if (st != HD_OK && st != HD_WL_MISMATCH && !c->ctx.err[0])
        snprintf(c->ctx.err, sizeof c->ctx.err, "%s", hd_last_error(client));
    return st;
}

static struct kernel_stat *kernel_stat(struct mix_run *r, int client, const char *kernel)
{
    for (unsigned i = 0; i < r->nk; i++)
        if (r->k[i].client == client && strcmp(r->k[i].kernel, kernel) == 0)
            return &r->k[i];
    if (r->nk == r->capk) {
        unsigned ncap = r->capk ? 2 * r->capk : 16;
        struct kernel_stat *k = realloc(r->k, ncap * sizeof *k);
        if (!k) {
            r->oom = true;
            return NULL;
        }
        r->k = k;
        r->capk = ncap;
    }
    struct kernel_stat *s = &r->k[r->nk++];
    memset(s, 0, sizeof *s);
    s->client = client;
    snprintf(s->kernel, sizeof s->kernel, "%s", kernel);
    return s;
}

static int stream_owner(const struct mix_run *r, int stream)
{
    for (unsigned i = 0; i < r->nowners; i++)
        if (r->owners[i].stream == stream)
            return r->owners[i].client;
    return -1;
}

static void observe(void *arg, const struct hd_kernel_record *rec)
{
    struct mix_run *r = arg;
    if (stream_owner(r, rec->stream) < 0) {
        if (r->nowners == r->capowners) {
            unsigned ncap = r->capowners ? 2 * r->capowners : 8;
            struct stream_owner *o = realloc(r->owners, ncap * sizeof *o);
            if (!o) {
                r->oom = true;
                return;
            }
            r->owners = o;
            r->capowners = ncap;
        }
        r->owners[r->nowners++] = (struct stream_owner){rec->stream, rec->client};
    }
    struct kernel_stat *s = kernel_stat(r, rec->client, rec->kernel);
    if (!s)
        return;
    if (s->launches == 0)
        s->first_batch = rec->batch;
    s->launches++;
    s->ctas += rec->ctas;
    s->warp_instrs += rec->warp_instrs;
    s->thread_instrs += rec->thread_instrs;
    s->last_batch = rec->batch;
}

/* Cycle mode: cycles per kernel and each client's last end, from the timing model's records. */
static void gather_timing(struct hd_gpu *gpu, struct mix_run *r, struct mix_client *cl,
                          unsigned n)
{
    unsigned count = hd_gpu_launch_timing_count(gpu);
    r->timed = hd_gpu_exec_mode(gpu) == HD_EXEC_CYCLE && count > 0;
    if (!r->timed)
        return;
    struct hd_timing_totals tt;
    hd_gpu_timing_totals(gpu, &tt);
    r->cycles = tt.cycles;
    for (unsigned i = 0; i < count; i++) {
        struct hd_launch_timing t;
        if (hd_gpu_launch_timing(gpu, i, &t) != HD_OK || !t.finished)
            continue;
        int c = stream_owner(r, t.stream);
        if (c >= 0 && (unsigned)c < n && t.end_cycle > cl[c].end_cycle)
            cl[c].end_cycle = t.end_cycle;
        struct kernel_stat *s = kernel_stat(r, c, t.kernel);
        if (s) {
            s->timed++;
            s->cycles += t.cycles;
        }
    }
}

/* The context lifecycle's lines of the timing summary (suspensions, saves, preemption requests
 * and their latencies), when the mix preempted or switched anything. */
static void print_context_lines(const struct hd_gpu *gpu)
{
    if (hd_gpu_exec_mode(gpu) != HD_EXEC_CYCLE)
        return;
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (!f)
        return;
    hd_gpu_print_stats(gpu, f);
    fclose(f);
    for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n"))
        if (strncmp(line, "  contexts ", 11) == 0 || strncmp(line, "  preemption ", 13) == 0 ||
            strstr(line, "traffic classes: "))
            printf("%s\n", line);
    free(text);
}

/* Run cl[0..n) as clients of a new GPU. Returns HD_CLI_OK, or an exit code after a message. */
static int run_clients(const struct mix_opts *o, const struct hd_config *cfg,
                       volatile sig_atomic_t *interrupt, struct mix_client *cl, unsigned n,
                       struct mix_run *r)
{
    struct hd_client_task tasks[HD_CLI_MIX_MAX];
    memset(tasks, 0, sizeof tasks);
    struct hd_gpu *gpu = hd_cli_gpu_create("run", &o->cfg, cfg);
    if (!gpu)
        return HD_CLI_FAIL;
    for (unsigned i = 0; i < n; i++) {
        tasks[i] = (struct hd_client_task){.name = cl[i].label, .body = mix_body, .arg = &cl[i],
                                           .open = cl[i].rep.on};
        cl[i].rep.gpu = gpu;
    }
    if (o->functional)
        hd_gpu_set_exec_mode(gpu, HD_EXEC_FUNCTIONAL);
    hd_gpu_set_interrupt(gpu, interrupt);
    hd_gpu_set_kernel_observer(gpu, observe, r);
    if (o->hw)
        hd_gpu_set_hw_factory(gpu, o->hw);
    double t0 = hd_cli_now();
    int st = hd_gpu_run_clients(gpu, tasks, n);
    r->seconds = hd_cli_now() - t0;
    int rc = HD_CLI_OK;
    if (st != HD_OK) {
        rc = hd_cli_fail("run", "mix %s: %s", o->mix, hd_last_error(gpu));
    } else {
        for (unsigned i = 0; i < n; i++) {
            cl[i].status = tasks[i].status;
            cl[i].totals = tasks[i].totals;
            cl[i].batches = tasks[i].batches;
            cl[i].shared_batches = tasks[i].shared_batches;
        }
        hd_gpu_totals(gpu, &r->all);
        r->batches = hd_gpu_batches(gpu);
        gather_timing(gpu, r, cl, n);
        if (r->timed)
            hd_cli_mix_repeat_gather(gpu, r, cl, n);
        print_context_lines(gpu);
        size_t len = o->stats ? strlen(o->stats) : 0, jlen = 0;
        if (r->timed && len >= 5 && strcmp(o->stats + len - 5, ".json") == 0) {
            FILE *f = open_memstream(&r->timing_json, &jlen);
            if (!f || hd_gpu_write_stats_json(gpu, f) != HD_OK)
                r->oom = true;
            if (f)
                fclose(f);
            size_t plen = 0; /* the energy report beside it (docs/power.md) */
            FILE *pf = open_memstream(&r->power_json, &plen);
            if (!pf || hd_gpu_write_power_json(gpu, pf) != HD_OK)
                r->oom = true;
            if (pf)
                fclose(pf);
        }
        if (r->oom)
            rc = hd_cli_fail("run", "out of memory collecting kernel statistics");
    }
    if (o->profile && r->timed) { /* the Oracle's first pass (issue 24): this run's CTAs */
        int s = hd_cli_gpu_write("run", "--profile-out", o->profile, "profile", gpu,
                                 hd_gpu_write_drain_profile);
        if (s != HD_CLI_OK && rc == HD_CLI_OK)
            rc = s;
    }
    hd_gpu_destroy(gpu);
    return rc;
}

static void run_free(struct mix_run *r)
{
    free(r->k);
    free(r->owners);
    free(r->timing_json);
    free(r->power_json);
    memset(r, 0, sizeof *r);
}
/* }==== */

static void client_init(struct mix_client *c, const struct hd_cli_mix *m, unsigned i,
                        enum hd_wl_size size)
{
    memset(c, 0, sizeof *c);
    c->w = hd_workload_find(m->workloads[i]);
    unsigned same = 0, before = 0;
    for (unsigned k = 0; k < m->nworkloads; k++)
        if (strcmp(m->workloads[k], m->workloads[i]) == 0) {
            same++;
            before += k < i;
        }
    if (same > 1)
        snprintf(c->label, sizeof c->label, "%s#%u", m->workloads[i], before + 1);
    else
        snprintf(c->label, sizeof c->label, "%s", m->workloads[i]);
    c->ctx.size = size;
    c->ctx.ptx_text = hd_workload_ptx(c->w->name, &c->ctx.ptx_len);
    c->ctx.ptx_name = hd_workload_ptx_path(c->w->name);
}

/* --alone: each workload by itself on a new GPU (messages discarded). */
static int run_alone(const struct mix_opts *o, const struct hd_config *cfg,
                     volatile sig_atomic_t *interrupt, const struct hd_cli_mix *m,
                     struct mix_client *cl, FILE *devnull)
{
    for (unsigned i = 0; i < m->nworkloads; i++) {
        struct mix_client one;
        struct mix_run r;
        memset(&r, 0, sizeof r);
        client_init(&one, m, i, o->size);
        one.ctx.paper = o->paper;
        one.ctx.waves = o->waves;
        one.ctx.waves3 = o->waves3;
        one.ctx.log = devnull;
        int rc = run_clients(o, cfg, interrupt, &one, 1, &r);
        cl[i].alone_status = one.status;
        cl[i].alone_cycles = r.cycles;
        run_free(&r);
        if (rc != HD_CLI_OK)
            return rc;
    }
    return HD_CLI_OK;
}

static int run_mix(struct mix_opts *o, const struct hd_cli_mix *m)
{
    struct hd_config cfg;
    int rc = hd_cli_config_resolve("run", &o->cfg, &cfg);
    if (rc != HD_CLI_OK)
        return rc;
    struct mix_client cl[HD_CLI_MIX_MAX];
    FILE *logs[HD_CLI_MIX_MAX] = {NULL};
    FILE *devnull = fopen("/dev/null", "w");
    if (!devnull)
        return hd_cli_fail("run", "cannot open /dev/null");
    volatile sig_atomic_t *interrupt = hd_cli_interrupt_install();
    struct mix_run r;
    memset(&r, 0, sizeof r);
    for (unsigned i = 0; i < m->nworkloads; i++) {
        client_init(&cl[i], m, i, o->size);
        cl[i].ctx.paper = o->paper;
        cl[i].ctx.waves = o->waves;
        cl[i].ctx.waves3 = o->waves3;
        logs[i] = o->quiet ? NULL : open_memstream(&cl[i].log_text, &cl[i].log_len);
        cl[i].ctx.log = logs[i] ? logs[i] : devnull;
    }
    apply_mix_hints(m, cl, m->nworkloads); /* (--hint W=N overrides them) */
    if (apply_arrivals(o, cl, m->nworkloads) != 0)
        rc = HD_CLI_USAGE;
    else
        rc = hd_cli_mix_repeat_setup(o, m, cl, m->nworkloads, devnull);
    if (rc == HD_CLI_OK && o->alone)
        rc = run_alone(o, &cfg, interrupt, m, cl, devnull);
    if (rc == HD_CLI_OK) {
        rc = run_clients(o, &cfg, interrupt, cl, m->nworkloads, &r);
        o->cycles = r.cycles;
        o->seconds = r.seconds;
    }
    for (unsigned i = 0; i < m->nworkloads; i++)
        if (logs[i])
            fclose(logs[i]); /* makes log_text/log_len valid */
    if (rc == HD_CLI_OK) {
        hd_cli_mix_print(o, m, cl, &r);
        bool interrupted = false, ok = true;
        for (unsigned i = 0; i < m->nworkloads; i++) {
            interrupted = interrupted || cl[i].status == HD_ERR_INTERRUPTED ||
                          (o->alone && cl[i].alone_status == HD_ERR_INTERRUPTED);
            ok = ok && cl[i].status == HD_OK && (!o->alone || cl[i].alone_status == HD_OK);
        }
        rc = ok ? HD_CLI_OK : interrupted ? HD_CLI_INTERRUPTED : HD_CLI_FAIL;
        if (o->stats) {
            int s = hd_cli_mix_write_stats(o, &cfg, m, cl, &r);
            if (s != HD_CLI_OK && rc == HD_CLI_OK)
                rc = s;
        }
    }
    for (unsigned i = 0; i < m->nworkloads; i++)
        free(cl[i].log_text);
    hd_cli_mix_repeat_free(cl, m->nworkloads);
    run_free(&r);
    fclose(devnull);
    return rc;
}

int hd_cli_mix_run_hw(const char *mix, const char *const *arrive, unsigned narrive,
                      const struct hd_cli_config *cfg, const char *size,
                      const struct hd_hw_factory *hw, unsigned long long *cycles, double *secs)
{
    struct mix_opts o = {.mix = mix, .cfg = *cfg, .hw = hw};
    if (hd_wl_size_parse(size, &o.size) != 0)
        return hd_cli_usage("cosim", "--size must be small, medium or large (or paper, "
                                     "waves, waves3), "
                                     "not '%s'", size);
    o.paper = strcmp(size, "paper") == 0;
    o.waves3 = strcmp(size, "waves3") == 0;
    o.waves = o.waves3 || strcmp(size, "waves") == 0;
    for (unsigned i = 0; i < narrive; i++)
        if (parse_arrival("cosim", arrive[i], &o) != 0)
            return HD_CLI_USAGE;
    struct hd_cli_mixes mixes;
    char err[512];
    if (hd_cli_mixes_load(NULL, &mixes, err, sizeof err) != 0)
        return hd_cli_fail("cosim", "%s", err);
    const struct hd_cli_mix *m = hd_cli_mixes_find(&mixes, mix);
    int rc = m ? run_mix(&o, m)
               : hd_cli_usage("cosim", "unknown mix '%s' (see heddle list --mixes)", mix);
    hd_cli_mixes_free(&mixes);
    *cycles = o.cycles;
    *secs = o.seconds;
    return rc;
}

int hd_cli_run_mix(int argc, char **argv)
{
    struct mix_opts o = {.size = HD_WL_SMALL};
    const char **sets = calloc((size_t)argc + 1, sizeof *sets);
    if (!sets)
        return hd_cli_fail("run", "out of memory");
    o.cfg.sets = sets;
    int rc = parse_args(argc, argv, &o);
    if (rc == 1) {
        rc = HD_CLI_OK;
    } else if (rc != 0) {
        rc -= 2;
    } else {
        struct hd_cli_mixes mixes;
        char err[512];
        if (hd_cli_mixes_load(o.mixes_file, &mixes, err, sizeof err) != 0) {
            rc = hd_cli_fail("run", "%s", err);
        } else {
            const struct hd_cli_mix *m = hd_cli_mixes_find(&mixes, o.mix);
            rc = m ? run_mix(&o, m)
                   : hd_cli_usage("run", "unknown mix '%s' (see heddle list --mixes)", o.mix);
            hd_cli_mixes_free(&mixes);
        }
    }
    free(sets);
    return rc;
}
