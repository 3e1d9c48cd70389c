# SPDX-License-Identifier: MIT
# GPUDuet's warp context table, TB context table and allocation bitmap stepped in the timing loop
# in lockstep with the model (model/mech/gpuduet/gpuduet_loop.h), its stalled/ready queues and
# throughput monitors whose outputs the model decides from (gpuduet_queues.c, gpuduet_tmloop.h);
# issue 28 item 4; docs/blocks/gpuduet.md "In the GPU":
# - gpuduet_loop_hotspot: hotspot at ME 4 with 32 warp slots (warps switched out at missed loads
#   and barriers, swapped and switched back in) under heddle cosim --blocks gpuduet --in-loop,
#   C references with the RTL in lockstep, then --drive rtl: both verified, 0 mismatches, every
#   table read and bitmap answer equal to the model's, the same cycles and block steps
#   (tests/gpuduet/loop.sh).
# - gpuduet_loop_fault: a wrong state written into the warp context table (the test-only key
#   [gpuduet] blocks_fault) is reported as a located mismatch (cycle, SM, block, signal).
# - gpuduet_loop_bad_config: the blocks on a GPU whose unified space they are not built for
#   (the Fermi configuration) are refused with a message naming the key and the sizes.
# - gpuduet_loop_csl_bad_port, gpuduet_loop_csl_bad_mover: the blocks with [sm] warp_move_bytes
#   other than the CSL block's port widths (128, 64, 256 B), or another warp mover than the CSL,
#   are refused.
# - gpuduet_loop_all_gpuduet (full tier): every workload, blocks in the loop.
# - gpuduet_loop_dynamic (full tier): hotspot and backprop with [gpuduet] dynamic and 1,000-cycle
#   warm-up and windows: the SMs' ME from their gpuduet_tmon blocks, the same cycles with
#   --drive rtl, at least one monitor update.
# - gpuduet_loop_fst (full tier): an FST window of the 96 instances (16 SMs x 6 blocks).
# - gpuduet_loop_csl_<ALLOC> (full tier): the CSL's data-mover blocks as the SMs' warp movers
#   (gpuduet_mover.h) under gpuduet, gpuduet_tb and vt on hotspot, backprop, srad and
#   stencil2d: 0 mismatches, the same cycles with --drive rtl, every job ceil(bytes / PW) beats.
#   (Every loop.sh run checks the CSL's log line; gpuduet_loop_hotspot is the CI one.)
# - gpuduet_loop_csl_regs_<ALLOC> (full tier): hotspot_r36 with 64 warp slots (registers limit:
#   moves of ST + live registers, several beats each, waiting for the register file's port)
#   under gpuduet and gpuduet_tb, the same checks.
# - gpuduet_loop_csl_pw64, _pw256 (full tier): the same under gpuduet with [sm] warp_move_bytes
#   = 64 and 256 (Fig 3.15's ports): the instance kinds gpuduet_csl:pw64 and :pw256.
# - gpuduet_loop_swap_cover (CI): hotspot at ME 4 with 32 warp slots under heddle cosim
#   --coverage: the CSL block's done_swap bin hit (a swap is one kind-2 job, session 20; the
#   loop never sent one before).
set(HD_TEST_MECHANISM gpuduet)
get_property(hd_gdl_workloads GLOBAL PROPERTY HD_WORKLOADS)
if(TARGET heddle AND TARGET hd_cosim_vl)
  add_test(NAME gpuduet_loop_hotspot
           COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/gpuduet/loop.sh $<TARGET_FILE:heddle> 4 gpuduet
                   --set sm.max_threads=1024 -- hotspot
           WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  set_tests_properties(gpuduet_loop_hotspot PROPERTIES LABELS "cosim" TIMEOUT 300
    PASS_REGULAR_EXPRESSION "loop.sh: 0 mismatches, same cycles with --drive rtl")
  # (gpuduet only: with gpuduet_tb and vt, seven workloads with 512- and 1024-thread TBs end in
  # the timing model's livelock watchdog with or without the blocks, docs/blocks/gpuduet.md)
  add_test(NAME gpuduet_loop_dynamic
           COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/gpuduet/loop.sh $<TARGET_FILE:heddle> 4 gpuduet
                   --set sm.max_threads=1024 --set gpuduet.dynamic=true
                   --set gpuduet.warmup=1000 --set gpuduet.window=1000 -- hotspot backprop
           WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  set_tests_properties(gpuduet_loop_dynamic PROPERTIES LABELS "cosim" TIMEOUT 600
    PASS_REGULAR_EXPRESSION "loop.sh: 0 mismatches, same cycles with --drive rtl")
  foreach(a gpuduet gpuduet_tb vt)
    add_test(NAME gpuduet_loop_csl_${a}
             COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/gpuduet/loop.sh $<TARGET_FILE:heddle> 4 ${a}
                     --set sm.max_threads=1024 -- hotspot backprop srad stencil2d
             WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
    set_tests_properties(gpuduet_loop_csl_${a} PROPERTIES LABELS "cosim" TIMEOUT 1800
      PASS_REGULAR_EXPRESSION "loop.sh: 0 mismatches, same cycles with --drive rtl")
  endforeach()
  foreach(pw 64 256)
    add_test(NAME gpuduet_loop_csl_pw${pw}
             COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/gpuduet/loop.sh $<TARGET_FILE:heddle> 4 gpuduet
                     --set sm.warp_move_bytes=${pw} -- hotspot_r36
             WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
    set_tests_properties(gpuduet_loop_csl_pw${pw} PROPERTIES LABELS "cosim" TIMEOUT 600
      PASS_REGULAR_EXPRESSION "loop.sh: 0 mismatches, same cycles with --drive rtl")
  endforeach()
  foreach(a gpuduet gpuduet_tb)
    add_test(NAME gpuduet_loop_csl_regs_${a}
             COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/gpuduet/loop.sh $<TARGET_FILE:heddle> 4 ${a}
                     -- hotspot_r36
             WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
    set_tests_properties(gpuduet_loop_csl_regs_${a} PROPERTIES LABELS "cosim" TIMEOUT 600
      PASS_REGULAR_EXPRESSION "loop.sh: 0 mismatches, same cycles with --drive rtl")
  endforeach()
  foreach(a gpuduet)
    add_test(NAME gpuduet_loop_all_${a}
             COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/gpuduet/loop.sh $<TARGET_FILE:heddle> 4 ${a}
                     --set sm.max_threads=1024 -- ${hd_gdl_workloads}
             WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
    set_tests_properties(gpuduet_loop_all_${a} PROPERTIES LABELS "cosim" TIMEOUT 7200
      PASS_REGULAR_EXPRESSION "loop.sh: 0 mismatches, same cycles with --drive rtl")
  endforeach()
endif()
if(TARGET heddle AND TARGET hd_cosim_vl AND TARGET hd_fstcheck)
  add_test(NAME gpuduet_loop_fst
           COMMAND sh -c "$<TARGET_FILE:heddle> cosim --blocks gpuduet --in-loop hotspot --size small --config configs/maxwell-gpuduet.ini --set sm.logical_warps=128 --set sm.max_threads=1024 --set gpuduet.dynamic=false --set gpuduet.me=4 --fst ${CMAKE_CURRENT_BINARY_DIR}/gpuduet_loop.fst --window 3000:3100 && $<TARGET_FILE:hd_fstcheck> ${CMAKE_CURRENT_BINARY_DIR}/gpuduet_loop.fst --instances 96 && test $(grep -o 'sm[0-9]*_gpuduet_[a-z]*[.]rtl[.]' ${CMAKE_CURRENT_BINARY_DIR}/gpuduet_loop.gtkw | sort -u | wc -l) -eq 96 && grep -q sm5_gpuduet_csl.rtl.done_wid_o ${CMAKE_CURRENT_BINARY_DIR}/gpuduet_loop.gtkw && grep -q sm15_gpuduet_wct.rtl.rd_sched_o ${CMAKE_CURRENT_BINARY_DIR}/gpuduet_loop.gtkw && grep -q sm3_gpuduet_queues.rtl.rd_head_o ${CMAKE_CURRENT_BINARY_DIR}/gpuduet_loop.gtkw && grep -q sm7_gpuduet_tmon.rtl.me_o ${CMAKE_CURRENT_BINARY_DIR}/gpuduet_loop.gtkw && grep -q sm0_gpuduet_bitmap.rtl.done_base_o ${CMAKE_CURRENT_BINARY_DIR}/gpuduet_loop.gtkw"
           WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  set_tests_properties(gpuduet_loop_fst PROPERTIES LABELS "cosim" TIMEOUT 300)
endif()
if(TARGET heddle)
  add_test(NAME gpuduet_loop_swap_cover
           COMMAND $<TARGET_FILE:heddle> cosim --blocks gpuduet --in-loop
                   hotspot --size small --config configs/maxwell-gpuduet.ini
                   --set sm.allocator=gpuduet --set sm.logical_warps=128
                   --set gpuduet.dynamic=false --set gpuduet.me=4 --set sm.max_threads=1024
                   --coverage
           WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  set_tests_properties(gpuduet_loop_swap_cover PROPERTIES LABELS "cosim" TIMEOUT 300
    PASS_REGULAR_EXPRESSION " [1-9][0-9]*  done_swap ")
  add_test(NAME gpuduet_loop_fault
           COMMAND $<TARGET_FILE:heddle> run hotspot --size small
                   --config configs/maxwell-gpuduet.ini --set sm.allocator=gpuduet
                   --set sm.logical_warps=128 --set sm.max_threads=1024
                   --set gpuduet.dynamic=false --set gpuduet.me=4 --set gpuduet.blocks=true
                   --set gpuduet.blocks_fault=3000
           WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  set_tests_properties(gpuduet_loop_fault PROPERTIES TIMEOUT 120
    PASS_REGULAR_EXPRESSION "MISMATCH at cycle [0-9]+, SM [0-9]+, block gpuduet_wct, signal rd_[a-z_]+( bit [0-9]+)?: the block gives [0-9]+, the model's warp context table has [0-9]+")
  add_test(NAME gpuduet_loop_bad_config
           COMMAND $<TARGET_FILE:heddle> run vecadd --size small --set sm.allocator=gpuduet
                   --set gpuduet.blocks=true
           WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  set_tests_properties(gpuduet_loop_bad_config PROPERTIES TIMEOUT 60
    PASS_REGULAR_EXPRESSION "key 'gpuduet.blocks': the GPUDuet blocks are built for a unified space of 2048 register-file, 768 shared-memory")
  add_test(NAME gpuduet_loop_csl_bad_port
           COMMAND $<TARGET_FILE:heddle> run vecadd --size small
                   --config configs/maxwell-gpuduet.ini --set sm.allocator=gpuduet
                   --set gpuduet.blocks=true --set sm.warp_move_bytes=96
           WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  set_tests_properties(gpuduet_loop_csl_bad_port PROPERTIES TIMEOUT 60
    PASS_REGULAR_EXPRESSION "key 'gpuduet.blocks': the CSL block [(]gpuduet_csl[)] is built with 128-, 64- and 256-byte ports [(]configs/rtl/gpuduet_csl.ini PW, loop_configs[)]; [[]sm[]] warp_move_bytes = 96")
  add_test(NAME gpuduet_loop_csl_bad_mover
           COMMAND $<TARGET_FILE:heddle> run vecadd --size small
                   --config configs/maxwell-gpuduet.ini --set sm.allocator=gpuduet
                   --set gpuduet.blocks=true --set sm.warp_mover=swap
           WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  set_tests_properties(gpuduet_loop_csl_bad_mover PROPERTIES TIMEOUT 60
    PASS_REGULAR_EXPRESSION "key 'gpuduet.blocks': the CSL block [(]gpuduet_csl[)] moves the switched-out warps; [[]sm[]] warp_mover must be fixed")
endif()

# Tiers (tests/CMakeLists.txt, docs/testing.md): these in CI, the rest in the full tier.
hd_tier(ci "^gpuduet_loop_(hotspot|swap_cover|fault|bad_config|csl_bad_port|csl_bad_mover)$")
