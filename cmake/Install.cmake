# Install rules (native builds): the static library and its public headers, a CMake package
# (find_package(prefill_trace) -> prefill_trace::prefill_trace), a pkg-config file and the CLI.
# The library's only dependency, nlohmann_json, is header-only and private, so neither the
# package nor the .pc file requires anything of a consumer.
include(CMakePackageConfigHelpers)

set(PREFILL_TRACE_CMAKE_DIR "${CMAKE_INSTALL_LIBDIR}/cmake/prefill_trace")

install(TARGETS prefill_trace EXPORT prefill_traceTargets
  ARCHIVE DESTINATION "${CMAKE_INSTALL_LIBDIR}"
  LIBRARY DESTINATION "${CMAKE_INSTALL_LIBDIR}")
install(DIRECTORY "${PROJECT_SOURCE_DIR}/include/prefill_trace"
                  "${PROJECT_BINARY_DIR}/include/prefill_trace"
        DESTINATION "${CMAKE_INSTALL_INCLUDEDIR}"
        FILES_MATCHING PATTERN "*.hpp")
install(EXPORT prefill_traceTargets
  NAMESPACE prefill_trace::
  DESTINATION "${PREFILL_TRACE_CMAKE_DIR}")

configure_package_config_file("${CMAKE_CURRENT_LIST_DIR}/prefill_traceConfig.cmake.in"
  "${PROJECT_BINARY_DIR}/prefill_traceConfig.cmake"
  INSTALL_DESTINATION "${PREFILL_TRACE_CMAKE_DIR}")
# 0.x releases may still change the interface between minor versions; from 1.0 on, a major
# version bump marks every incompatible change.
write_basic_package_version_file("${PROJECT_BINARY_DIR}/prefill_traceConfigVersion.cmake"
  COMPATIBILITY SameMajorVersion)
install(FILES "${PROJECT_BINARY_DIR}/prefill_traceConfig.cmake"
              "${PROJECT_BINARY_DIR}/prefill_traceConfigVersion.cmake"
        DESTINATION "${PREFILL_TRACE_CMAKE_DIR}")

# pkg-config: the prefix is found from the .pc file's own place (${pcfiledir}), so the file stays
# right under `cmake --install --prefix` and when the installed tree is moved.
file(RELATIVE_PATH PREFILL_TRACE_PC_TO_PREFIX "/prefix/${CMAKE_INSTALL_LIBDIR}/pkgconfig" "/prefix")
string(REGEX REPLACE "/$" "" PREFILL_TRACE_PC_TO_PREFIX "${PREFILL_TRACE_PC_TO_PREFIX}")
configure_file("${CMAKE_CURRENT_LIST_DIR}/prefill_trace.pc.in"
               "${PROJECT_BINARY_DIR}/prefill_trace.pc" @ONLY)
install(FILES "${PROJECT_BINARY_DIR}/prefill_trace.pc"
        DESTINATION "${CMAKE_INSTALL_LIBDIR}/pkgconfig")

if(TARGET prefill-trace)
  install(TARGETS prefill-trace RUNTIME DESTINATION "${CMAKE_INSTALL_BINDIR}")
endif()
install(FILES "${PROJECT_SOURCE_DIR}/LICENSE" "${PROJECT_SOURCE_DIR}/lesson-data/LICENSE-ATLAS.md"
              "${PROJECT_SOURCE_DIR}/lesson-data/NOTICE"
        DESTINATION "${CMAKE_INSTALL_DATADIR}/doc/prefill_trace")
