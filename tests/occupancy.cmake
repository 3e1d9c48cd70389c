# SPDX-License-Identifier: MIT
# Occupancy and configuration through the CLI (included by tests/CMakeLists.txt after cli.cmake,
# whose hd_cli_test it uses): `heddle list` shows registers (ours/ptxas), shared memory, CTA size
# and what limits occupancy; `heddle ptx-info` shows both register counts' occupancy; a GPGPU-Sim
# config loads with one warning. Expected numbers are the hand calculations of test_occupancy.c
# applied to the workloads' recorded resources (sgemm: 256 threads, 2048 B shared, 20/40 regs).

if(NOT COMMAND hd_cli_test)
  include(${CMAKE_CURRENT_LIST_DIR}/cli.cmake)
endif()

# sgemm on fermi: ours 20 regs -> 640 per warp, 8 warps = 5120 -> 6 CTAs = 48/48 warps (tie with
# threads); ptxas 40 -> 1280 per warp, 10240 per CTA -> 3 CTAs, 24/48 warps. The timing model
# and the workload table count ptxas's ([sm] regs_source = ptxas, issue 15; until then ours).
# (sgemm's row alone, `heddle list sgemm`: the whole list runs all 175 workloads, 13 CPU-seconds
# each time; session 24)
hd_cli_test(list_occupancy 0
            "sgemm +compute +yes +20/40 +2048 +256 +40 ptxas +3 +24/48 +registers"
            list sgemm)
hd_cli_test(list_kernels 0
            "sgemm +sgemm_tiled +1 +256 +2048 +20/40 +6 48/48 registers\\+threads +3 24/48 registers +40 ptxas"
            list --kernels sgemm)
hd_cli_test(list_occupancy_regalloc 0
            "sgemm +compute +yes +20/40 +2048 +256 +20 regalloc +6 +48/48 +registers\\+threads"
            list --set sm.regs_source=regalloc sgemm)
# kepler: 65536 regs, 64 warps, 16 CTAs, 16 KB: sgemm ptxas 40 x 32 x 8 = 10240 -> 6 CTAs, 48/64
# warps (ours, 20: 5120 -> 12; shared 16384/2048 = 8 and warps 64/8 = 8 would tie)
hd_cli_test(list_kepler 0 "LIMIT ON kepler-gk110.*sgemm +compute +yes +20/40 +2048 +256 +40 ptxas +6 +48/64 +registers"
            list --config configs/kepler-gk110.ini sgemm)
hd_cli_test(list_static 0 "sgemm +compute +yes +20/40 +2048 +- +- +- +- +-" list --static)
hd_cli_test(list_names_kernels 2 "--names and --kernels do not go together" list --names --kernels)
hd_cli_test(ptx_info_occupancy 0
            "registers per thread: 20 .*ptxas \\(sm_75\\): registers=40.*occupancy on fermi-gtx480, 256 threads per CTA, 2048 \\+ 0 bytes shared:.*ours +\\( 20 registers\\): 6 CTAs, 48/48 warps \\(100%\\), limited by registers\\+threads.*ptxas \\( 40 registers\\): 3 CTAs, 24/48 warps \\(50%\\), limited by registers"
            ptx-info sgemm)
# maxwell, 1024 threads and 40 KB dynamic: warps 64/32 = 2; shared 98304/(2048+40960) = 2 -> tie
hd_cli_test(ptx_info_occupancy_options 0
            "occupancy on maxwell-gpuduet, 1024 threads per CTA, 2048 \\+ 40960 bytes shared:.*ours +\\( 20 registers\\): 2 CTAs, 64/64 warps \\(100%\\), limited by shared memory\\+threads"
            ptx-info sgemm --config configs/maxwell-gpuduet.ini --threads 1024 --shared 40K)
hd_cli_test(ptx_info_nofit 0 "ours +\\( 20 registers\\): does not fit: one CTA needs 53248 bytes of shared memory, the SM has 49152"
            ptx-info sgemm --shared 51200)
hd_cli_test(ptx_info_ptxas_beside 0 "ptxas \\(sm_75\\): registers=40.*ptxas \\( 40 registers\\): 3 CTAs"
            ptx-info tests/occupancy/beside.ptx)
hd_cli_test(ptx_info_bad_threads 2 "--threads wants a positive count" ptx-info sgemm --threads 0)
# GPGPU-Sim configuration: loads, runs, one warning line naming the ignored options
hd_cli_test(config_gpgpusim 0
            "name = \"gpgpusim-gtx480\".*num_sms = 15.*warning: 23 GPGPU-Sim options with no Heddle equivalent ignored: -gpgpu_ptx_instruction_classification, "
            config --config tests/config/gpgpusim-gtx480.config)
hd_cli_test(run_gpgpusim 0 "VERIFIED" run vecadd --quiet --config tests/config/gpgpusim-gtx480.config)

# Tiers (tests/CMakeLists.txt, docs/testing.md): the list checks of sgemm's row in CI (0.1 s each
# since session 24), the rest in the full tier.
hd_tier(ci "^cli_list_(occupancy|kernels|occupancy_regalloc|kepler)$")
