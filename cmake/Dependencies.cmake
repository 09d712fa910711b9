# Dependencies are found offline by CMake's own search (Debian's packages here); nothing is
# downloaded.

if(EMSCRIPTEN)
  # Under emcmake, find_package is confined to the Emscripten sysroot, and pointing it at
  # /usr/include would drag host glibc headers into the wasm compile (TOOLCHAIN note 6).
  # Expose a build-tree folder that holds only a link to nlohmann/ instead.
  # The host's package (header-only, so any platform's copy serves), found by CMake's own search
  # outside the sysroot; its include folder is exposed through the isolated link below.
  find_package(nlohmann_json CONFIG QUIET NO_CMAKE_FIND_ROOT_PATH)
  if(NOT nlohmann_json_FOUND OR nlohmann_json_VERSION VERSION_LESS 3.11)
    message(FATAL_ERROR
      "prefill-trace needs the host's nlohmann_json 3.11 or newer for the wasm build "
      "(found: ${nlohmann_json_VERSION} ${nlohmann_json_DIR}); install it (Debian/Ubuntu: "
      "nlohmann-json3-dev) or set nlohmann_json_DIR to the folder holding nlohmann_jsonConfig.cmake.")
  endif()
  get_target_property(_nlohmann_include nlohmann_json::nlohmann_json INTERFACE_INCLUDE_DIRECTORIES)
  find_path(NLOHMANN_JSON_INCLUDE_DIR nlohmann/json.hpp PATHS ${_nlohmann_include}
            NO_DEFAULT_PATH NO_CMAKE_FIND_ROOT_PATH REQUIRED)
  set(_isolated "${PROJECT_BINARY_DIR}/isolated-include")
  file(MAKE_DIRECTORY "${_isolated}")
  file(CREATE_LINK "${NLOHMANN_JSON_INCLUDE_DIR}/nlohmann" "${_isolated}/nlohmann" SYMBOLIC)
  add_library(prefill_trace_json INTERFACE)
  target_include_directories(prefill_trace_json SYSTEM INTERFACE "${_isolated}")
else()
  # A parent project may already provide the target (its own FetchContent); use that one.
  if(NOT TARGET nlohmann_json::nlohmann_json)
    # 3.11: the namespace can be renamed (below). Found by CMake's own search (its package
    # config); -Dnlohmann_json_DIR=... or CMAKE_PREFIX_PATH point it elsewhere.
    find_package(nlohmann_json CONFIG QUIET)
    if(NOT nlohmann_json_FOUND)
      message(FATAL_ERROR
        "prefill-trace needs nlohmann_json 3.11 or newer, and CMake found none. Install it "
        "(Debian/Ubuntu: nlohmann-json3-dev, Fedora: json-devel, Homebrew: nlohmann-json, "
        "vcpkg/Conan: nlohmann-json) or set nlohmann_json_DIR to the folder holding "
        "nlohmann_jsonConfig.cmake.")
    elseif(nlohmann_json_VERSION VERSION_LESS 3.11)
      message(FATAL_ERROR
        "prefill-trace needs nlohmann_json 3.11 or newer; CMake found ${nlohmann_json_VERSION} "
        "(${nlohmann_json_DIR}). 3.11 is the first that lets a library keep its copy in its own "
        "namespace (NLOHMANN_JSON_NAMESPACE), which keeps this library's no-exceptions build "
        "from clashing with yours. Install a newer one, or set nlohmann_json_DIR to it.")
    endif()
  endif()
  add_library(prefill_trace_json INTERFACE)
  target_link_libraries(prefill_trace_json INTERFACE nlohmann_json::nlohmann_json)
endif()
# These settings stay inside this project: prefill_trace links prefill_trace_json PRIVATE, and only
# this project's own tools and tests (prefill_trace_private) see it.
# JSON_NOEXCEPTION: nlohmann aborts where it would throw. The core only calls what cannot throw
# on validated input (types are checked before get<>, members found before use; parse errors
# arrive through the SAX handler), and every target that includes the header must agree on the
# setting, or its inline functions would differ between translation units.
target_compile_definitions(prefill_trace_json INTERFACE JSON_USE_IMPLICIT_CONVERSIONS=0 JSON_NOEXCEPTION)
# The library's copy of nlohmann_json lives in its own inline namespace. Its inline functions are
# compiled with other settings than a consumer's (no exceptions), and under the same names they
# would break the one-definition rule when both are linked: the linker keeps one body per symbol,
# and a consumer's `throw type_error` could become the library's abort (tests/consumers/cmake
# links the consumer's JSON code after the library to catch exactly that). nlohmann 3.11 lets
# the namespace be renamed.
target_compile_definitions(prefill_trace_json INTERFACE
  "NLOHMANN_JSON_NAMESPACE=nlohmann::json_prefill_trace"
  "NLOHMANN_JSON_NAMESPACE_BEGIN=namespace nlohmann { inline namespace json_prefill_trace {"
  "NLOHMANN_JSON_NAMESPACE_END=} }")

if(PREFILL_TRACE_TESTS)
  if(EMSCRIPTEN)
    # The same GoogleTest suite compiled to wasm and run under node (TOOLCHAIN note 7),
    # built from Debian's sources without pthreads.
    set(gtest_disable_pthreads ON CACHE BOOL "" FORCE)
    set(INSTALL_GTEST OFF CACHE BOOL "" FORCE)
    set(BUILD_GMOCK OFF CACHE BOOL "" FORCE)
    set(PREFILL_TRACE_GTEST_SOURCE_DIR "/usr/src/googletest" CACHE PATH
        "GoogleTest's source tree, built for wasm with the tests (where Debian's googletest package puts it)")
    if(NOT EXISTS "${PREFILL_TRACE_GTEST_SOURCE_DIR}/CMakeLists.txt")
      message(FATAL_ERROR
        "The wasm tests build GoogleTest from its sources, and ${PREFILL_TRACE_GTEST_SOURCE_DIR} "
        "holds none: set PREFILL_TRACE_GTEST_SOURCE_DIR to a googletest source tree (Debian/"
        "Ubuntu: the googletest package), or configure with -DPREFILL_TRACE_TESTS=OFF.")
    endif()
    add_subdirectory("${PREFILL_TRACE_GTEST_SOURCE_DIR}" "${PROJECT_BINARY_DIR}/googletest"
                     EXCLUDE_FROM_ALL)
    # googletest 1.12 defines GTest::gtest_main itself.
  else()
    find_package(GTest REQUIRED)
  endif()
endif()
