# SPDX-License-Identifier: MIT
# Warpman ([sm] allocator = warpman; model/mech/warpman; EXPARS's baseline, issue 33 item 4,
# docs/expars.md "Warpman at run time").
# - test_warpman (tests/unit): the admission rule worked by hand (a partial CTA gets
#   floor(rem / (regs x 32)) warps), the allocator's grants, and runs on one SM: the partial
#   CTA's waiting warps start fresh (no context move), its barrier waits for them (the output
#   depends on it), the counts by hand, the same cycles twice and with skip_idle off.
# - warpman_<sched>_<W>: workload W at small size under Warpman with the LRR, GTO or two-level
#   scheduler (6 active warps, the EXPARS experiment's): it must verify, and every warp placed
#   waiting must have started (tests/warp/counter.sh). The CI sample (base workloads whose runs
#   place a partial CTA: warp_fresh_starts >= 1) is about 3 test-seconds; every workload and
#   variant runs in the full tier.
set(HD_TEST_MECHANISM warpman)
if(TEST test_warpman)
  set_property(TEST test_warpman APPEND PROPERTY LABELS warpman)
endif()

get_property(hd_warpman_workloads GLOBAL PROPERTY HD_WORKLOADS)
set(hd_warpman_ci vecadd sgemm reduction stencil2d spmv)
if(TARGET heddle)
  foreach(s lrr gto two_level)
    foreach(wl IN LISTS hd_warpman_workloads)
      if(wl IN_LIST hd_warpman_ci)
        set(min 1)
      else()
        set(min 0)
      endif()
      add_test(NAME warpman_${s}_${wl}
               COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/warp/counter.sh $<TARGET_FILE:heddle> ${wl}
                       warp_fresh_starts ${min} --set sm.allocator=warpman
                       --set sm.scheduler=${s} --set sm.sched_active_warps=6
               WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
      set_tests_properties(warpman_${s}_${wl} PROPERTIES LABELS "warpman" TIMEOUT 300
                           PASS_REGULAR_EXPRESSION "VERIFIED"
                           FAIL_REGULAR_EXPRESSION "FAILED|MISMATCH|internal:|counter.sh:")
    endforeach()
  endforeach()
endif()

# Tiers (tests/CMakeLists.txt, docs/testing.md)
string(REPLACE ";" "|" hd_warpman_ci_re "${hd_warpman_ci}")
hd_tier(ci "^test_warpman$" "^warpman_(lrr|gto|two_level)_(${hd_warpman_ci_re})$")
