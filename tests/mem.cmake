# Memory-system unit tests (tests/unit/test_mem_*.c) drive model/mem directly through fake SM
# ports, so they also link the memory-system library.
file(GLOB HD_MEM_TESTS CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/unit/test_mem_*.c)
foreach(src ${HD_MEM_TESTS})
  get_filename_component(name ${src} NAME_WE)
  target_link_libraries(${name} PRIVATE hd_mem)
endforeach()
