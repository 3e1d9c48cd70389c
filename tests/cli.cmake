# SPDX-License-Identifier: MIT
# Tests of the `heddle` command (included by tests/CMakeLists.txt): help on every command, usage
# errors (exit 2, never a crash), located errors from configs, PTX and the runtime (exit 1),
# ptx-info on real PTX, `heddle launch` of workload kernels checked byte-exactly with --expect,
# and Ctrl-C (exit 130 with the totals gathered so far).

if(NOT TARGET heddle)
  return()
endif()

set(HD_CLI_CHECK ${CMAKE_CURRENT_LIST_DIR}/cli/check.cmake)
set(HD_WL ${CMAKE_SOURCE_DIR}/workloads)

# hd_cli_test(NAME RC REGEX ARGS...): run `heddle ARGS...`, expect exit status RC and REGEX.
function(hd_cli_test name rc regex)
  string(REPLACE ";" "|" args "${ARGN}")
  add_test(NAME cli_${name}
           COMMAND ${CMAKE_COMMAND} -DPROG=$<TARGET_FILE:heddle> "-DARGS=${args}" -DRC=${rc}
                   "-DREGEX=${regex}" -P ${HD_CLI_CHECK}
           WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  set_tests_properties(cli_${name} PROPERTIES LABELS cli TIMEOUT 120)
endfunction()

# {==== help and usage errors ====
hd_cli_test(help 0 "Commands:.*list.*run.*ptx-info.*launch" --help)
hd_cli_test(no_args 2 "Usage: heddle COMMAND")
foreach(cmd list run ptx-info launch config config-doc)
  hd_cli_test(help_${cmd} 0 "Usage: heddle ${cmd}" ${cmd} --help)
endforeach()
hd_cli_test(help_config_params 0 "\\[sm\\].*scheduler += gto" --help-config)
hd_cli_test(unknown_command 2 "unknown command 'frobnicate' \\(commands: list, run, .*, cosim, regpat-stats\\)" frobnicate)
hd_cli_test(unknown_option 2 "heddle run: unknown option '--fast'" run vecadd --fast)
hd_cli_test(run_no_workload 2 "which workload" run)
hd_cli_test(run_unknown_workload 2 "unknown workload 'nope'" run nope)
hd_cli_test(run_bad_size 2 "--size must be small, medium or large" run vecadd --size huge)
hd_cli_test(cosim_bad_size 2 "heddle cosim: .*--size must be small, medium or large \\(or paper, waves, waves3\\), not .huge." cosim --blocks regpat vecadd --size huge)
hd_cli_test(run_missing_value 2 "option '--config' needs a value" run vecadd --config)
hd_cli_test(launch_no_grid 2 "--grid and --block are required"
            launch ${HD_WL}/vecadd/vecadd.ptx vecadd)
hd_cli_test(launch_bad_dim 2 "--block wants X"
            launch ${HD_WL}/vecadd/vecadd.ptx vecadd --grid 1 --block 0,2)
hd_cli_test(launch_bad_type 2 "unknown type 'q32'"
            launch ${HD_WL}/vecadd/vecadd.ptx vecadd --grid 1 --block 1 --arg q32:1)
hd_cli_test(launch_bad_value 2 "'300' is not a valid u8"
            launch ${HD_WL}/vecadd/vecadd.ptx vecadd --grid 1 --block 1 --arg u8:300)
hd_cli_test(launch_bad_fill 2 "unknown fill 'ones'"
            launch ${HD_WL}/vecadd/vecadd.ptx vecadd --grid 1 --block 1 --arg buf:a:64:ones)
hd_cli_test(launch_unknown_buffer 2 "no buffer named 'zz'"
            launch ${HD_WL}/vecadd/vecadd.ptx vecadd --grid 1 --block 1 --print zz:u32:1)
# }====

# {==== located errors from inputs and the runtime ====
hd_cli_test(run_bad_config 1 "tests/cli/bad.ini:2: key 'bogus_key': unknown key in section \\[sm\\]"
            run vecadd --config tests/cli/bad.ini)
hd_cli_test(run_missing_config 1 "nonexistent.ini: cannot read" run vecadd --config nonexistent.ini)
hd_cli_test(ptx_info_bad 1 "tests/cli/bad.ptx:8:[0-9]+: " ptx-info tests/cli/bad.ptx)
hd_cli_test(ptx_info_missing 1 "nonexistent.ptx: cannot read" ptx-info nonexistent.ptx)
hd_cli_test(launch_bad_ptx 1 "tests/cli/bad.ptx:8:[0-9]+: "
            launch tests/cli/bad.ptx broken --grid 1 --block 1 --arg u64:0)
hd_cli_test(launch_unknown_kernel 1 "no kernel named 'nokernel'"
            launch ${HD_WL}/vecadd/vecadd.ptx nokernel --grid 1 --block 1)
hd_cli_test(launch_arg_count 1 "vecadd.*4 arguments"
            launch ${HD_WL}/vecadd/vecadd.ptx vecadd --grid 1 --block 1 --arg u32:1)
hd_cli_test(launch_arg_size 1 "vecadd.*param"
            launch ${HD_WL}/vecadd/vecadd.ptx vecadd --grid 1 --block 1
            --arg u32:0 --arg u64:0 --arg u64:0 --arg s32:1)
hd_cli_test(launch_out_of_bounds 1 "out-of-bounds.*thread.*PC [0-9]+.*vecadd.ptx:[0-9]+"
            launch ${HD_WL}/vecadd/vecadd.ptx vecadd --grid 1 --block 32
            --arg u64:0 --arg u64:0 --arg u64:0 --arg s32:32)
# }====

# {==== real work ====
# every workload (runs all 175 at small: about 13 CPU-seconds; full tier); CI lists two by name
hd_cli_test(list 0 "NAME +CLASS +IDEMPOTENT +REGS ours/ptxas.*DESCRIPTION.*vecadd.*\\([0-9]+ workloads" list)
hd_cli_test(list_some 0 "NAME +CLASS +IDEMPOTENT +REGS ours/ptxas.*DESCRIPTION.*sgemm +compute.*vecadd +.*\\(2 workloads" list sgemm vecadd)
hd_cli_test(list_unknown 2 "heddle list: unknown workload 'nope'" list vecadd nope)
hd_cli_test(run_vecadd 0 "VERIFIED.*warp instructions +[0-9,]+" run vecadd --quiet)
hd_cli_test(run_set 0 "fermi-gtx480 defaults \\+ 2 --set\\): VERIFIED"
            run vecadd --quiet --set sm.num_schedulers=4 --set gpu.num_sms=30)
hd_cli_test(run_set_unknown 2 "--set sm.bogus=1: key 'sm.bogus': unknown parameter"
            run vecadd --set sm.bogus=1)
# the memory system's rules across keys are checked when the GPU is created, before any run,
# and name the configuration as given (not the temporary file --set writes)
hd_cli_test(run_set_mem_rule 2
            "heddle run: fermi-gtx480 defaults, --set dram.write_queue=8: key 'write_high' in \\[dram\\]: must not exceed write_queue"
            run vecadd --set dram.write_queue=8)
hd_cli_test(launch_set_invalid 2 "key 'max_threads': 1000 is not a multiple of warp_size"
            launch ${HD_WL}/vecadd/vecadd.ptx vecadd --grid 1 --block 32 --set sm.max_threads=1000)
hd_cli_test(config_echo 0 "\\[sm\\].*num_schedulers = 4"
            config --config configs/fermi-gtx480.ini --set sm.num_schedulers=4)
hd_cli_test(ptx_info_vecadd 0
            "kernel vecadd.*parameters: 4.*PTX registers: [0-9]+.*CFG: [0-9]+ blocks.*bra.*-> PC [0-9]+, line [0-9]+"
            ptx-info ${HD_WL}/vecadd/vecadd.ptx)
hd_cli_test(ptx_info_workload_name 0 "kernel bfs_level.*ptxas \\(sm_75\\): registers=" ptx-info bfs --blocks)
# c = a + 0 must equal a (seq-f32), byte for byte
hd_cli_test(launch_vecadd 0 "completed.*expect c = seq-f32: OK"
            launch ${HD_WL}/vecadd/vecadd.ptx vecadd --grid 4 --block 256
            --arg buf:a:4K:seq-f32 --arg buf:b:4K:zero --arg buf:c:4K:const-u32:0xdeadbeef
            --arg s32:1024 --print c:f32:4 --expect c:seq-f32)
hd_cli_test(launch_expect_mismatch 1 "MISMATCH at byte 6 \\(32-bit word 1\\).*expected 0x00000000, got 0x3f800000"
            launch ${HD_WL}/vecadd/vecadd.ptx vecadd --grid 4 --block 256
            --arg buf:a:4K:seq-f32 --arg buf:b:4K:zero --arg buf:c:4K:zero --arg s32:1024
            --expect c:zero)
# 8 CTAs of 256 threads each sum 512 ones (dynamic shared memory, barriers, shfl.down)
hd_cli_test(launch_reduction 0 "expect out = const-f32:512: OK"
            launch ${HD_WL}/reduction/reduction.ptx reduce_sum --grid 8 --block 256 --shared 1024
            --arg buf:in:16K:const-f32:1 --arg buf:out:32:zero --arg u32:4096
            --expect out:const-f32:512)
# C = 1 * (A=1)(B=2) + 0 * C0 over k = 32: every element 64 (shared-memory tiles)
hd_cli_test(launch_sgemm 0 "expect C = const-f32:64: OK"
            launch ${HD_WL}/sgemm/sgemm.ptx sgemm_tiled --grid 2,2 --block 16,16
            --arg buf:A:4K:const-f32:1 --arg buf:B:4K:const-f32:2 --arg buf:C0:4K:rand-f32:7
            --arg buf:C:4K:zero --arg s32:32 --arg s32:32 --arg s32:32 --arg f32:1 --arg f32:0
            --expect C:const-f32:64)
# 0.5 * 1 + 0.125 * (4 neighbours of 1) = 1 inside, copied 1 on the border
hd_cli_test(launch_stencil 0 "expect out = const-f32:1: OK"
            launch ${HD_WL}/stencil2d/stencil2d.ptx stencil5 --grid 4,4 --block 16,16
            --arg buf:in:16K:const-f32:1 --arg buf:out:16K:zero --arg s32:64 --arg s32:64
            --arg f32:0.5 --arg f32:0.125 --expect out:const-f32:1)
# 1024 zero words: bin 0 counts 4096 bytes, bin 1 none (shared and global atomics)
hd_cli_test(launch_histogram 0 "bins\\[0\\.\\.2\\) u32:.*\\[0\\] 4096 0"
            launch ${HD_WL}/histogram/histogram.ptx histogram256 --grid 4 --block 128
            --arg buf:data:4K:zero --arg u32:1024 --arg buf:bins:1K:zero --print bins:u32:2)
# BFS on n = 1000 self-loops (row_ptr = 0,1,..,n; cols[e] = e), every vertex at level cur = -1:
# each visits itself, sets level 0 and raises `changed`
hd_cli_test(launch_bfs 0 "expect level = zero: OK.*expect changed = const-u32:1: OK"
            launch ${HD_WL}/bfs/bfs.ptx bfs_level --grid 4 --block 256
            --arg buf:row_ptr:4004:seq-u32 --arg buf:cols:4000:seq-u32
            --arg buf:level:4000:const-u32:0xffffffff --arg s32:1000 --arg s32:-1
            --arg buf:changed:4:zero --expect level:zero --expect changed:const-u32:1)

# --stats: an INI report that starts with the configuration used
add_test(NAME cli_run_stats
         COMMAND ${CMAKE_COMMAND} -DPROG=$<TARGET_FILE:heddle>
                 "-DARGS=run|vecadd|--quiet|--config|configs/fermi-gtx480.ini|--stats|${CMAKE_BINARY_DIR}/cli_run_stats.ini"
                 -DRC=0 -DFILE=${CMAKE_BINARY_DIR}/cli_run_stats.ini
                 "-DFILE_REGEX=^# Heddle statistics report.*\\[gpu\\]\nname = \"fermi-gtx480\".*\\[sm\\].*\\[run\\]\nworkload = vecadd\nsize = small\nverified = true.*\\[totals\\]\nkernels = 1\nctas = [1-9]"
                 -P ${HD_CLI_CHECK}
         WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
set_tests_properties(cli_run_stats PROPERTIES LABELS cli TIMEOUT 120)
# a dumped buffer holds exactly what --expect saw (read back by a second launch:
# tests/cli/robust.sh dump_roundtrip; one command may not read a file it writes)
hd_cli_test(launch_dump 0 "dumped c \\(4096 bytes\\) to .*expect c = rand-f32:3: OK"
            launch ${HD_WL}/vecadd/vecadd.ptx vecadd --grid 4 --block 256
            --arg buf:a:4K:rand-f32:3 --arg buf:b:4K:zero --arg buf:c:4K:zero --arg s32:1024
            --dump c:${CMAKE_BINARY_DIR}/cli_launch_dump.bin --expect c:rand-f32:3)
# }====

# {==== Ctrl-C ====
# SIGINT after 4 s: the large sgemm runs ~13 s of CPU; at 1 s the signal landed before the first
# warp instruction on a loaded CI run (session 12), as mix_cli_interrupt's 1 s once did.
find_program(HD_TIMEOUT timeout)
if(HD_TIMEOUT)
  add_test(NAME cli_interrupt
           COMMAND ${CMAKE_COMMAND} -DPROG=${HD_TIMEOUT}
                   "-DARGS=--preserve-status|-s|INT|4|$<TARGET_FILE:heddle>|run|sgemm|--size|large|--quiet"
                   -DRC=130 "-DREGEX=INTERRUPTED.*warp instructions +[1-9]" -P ${HD_CLI_CHECK}
           WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  set_tests_properties(cli_interrupt PROPERTIES LABELS cli TIMEOUT 120)
endif()
# }====

# Tiers (tests/CMakeLists.txt, docs/testing.md): these in CI but cli_list (every workload: CI
# has cli_list_some and regs_list_occupancy_sample), the rest in the full tier.
hd_tier(full "^cli_list$")
hd_tier(ci ".")
