#===- FP8MLIRInstall.cmake - The installed FP8MLIR CMake package ----------===#
#
# `cmake --install` lays out <prefix>/include, <prefix>/lib, <prefix>/bin and
# the package <prefix>/lib/cmake/fp8mlir, so that another project can write
#
#   find_package(FP8MLIR REQUIRED CONFIG)
#   target_link_libraries(tool PRIVATE FP8MLIR::FP8MLIRRegistration)
#
# Our libraries are created with DISABLE_INSTALL because add_mlir_library
# would otherwise install them into MLIR's own export set (MLIRTargets), which
# this package neither owns nor ships. They go into FP8MLIRTargets instead,
# next to fp8-opt (tools/fp8-opt/CMakeLists.txt).
#
#===----------------------------------------------------------------------===#

include(CMakePackageConfigHelpers)

set(FP8MLIR_INSTALL_INCLUDE_DIR include)
set(FP8MLIR_INSTALL_LIB_DIR lib)
set(FP8MLIR_INSTALL_BIN_DIR bin)
set(FP8MLIR_INSTALL_PACKAGE_DIR lib/cmake/fp8mlir)

# Appends to `out` every target defined in `dir` or below it whose name
# matches `name_regex` and whose type matches `type_regex`. Collecting the
# libraries (rather than listing them here) keeps the export set complete
# when a library is added under lib/: install(EXPORT) refuses to generate
# when an exported target links one that is not exported.
function(fp8mlir_collect_targets dir name_regex type_regex out)
  set(result ${${out}})
  get_property(targets DIRECTORY ${dir} PROPERTY BUILDSYSTEM_TARGETS)
  foreach(target IN LISTS targets)
    get_target_property(type ${target} TYPE)
    if(target MATCHES "${name_regex}" AND type MATCHES "${type_regex}")
      list(APPEND result ${target})
    endif()
  endforeach()
  get_property(subdirs DIRECTORY ${dir} PROPERTY SUBDIRECTORIES)
  foreach(subdir IN LISTS subdirs)
    fp8mlir_collect_targets(${subdir} "${name_regex}" "${type_regex}" result)
  endforeach()
  set(${out} ${result} PARENT_SCOPE)
endfunction()

set(FP8MLIR_EXPORTED_LIBRARIES)
fp8mlir_collect_targets(${FP8_SOURCE_DIR}/lib
  "^FP8MLIR" "^(STATIC|SHARED)_LIBRARY$" FP8MLIR_EXPORTED_LIBRARIES)

# add_llvm_executable gives installed tools the run path $ORIGIN/../lib
# alone, which finds libMLIR.so only where we are installed into LLVM's own
# prefix: name LLVM's library directory too.
set(FP8MLIR_TOOLS)
fp8mlir_collect_targets(${FP8_SOURCE_DIR}/tools
  "." "^EXECUTABLE$" FP8MLIR_TOOLS)
foreach(tool IN LISTS FP8MLIR_TOOLS)
  set_property(TARGET ${tool} APPEND PROPERTY INSTALL_RPATH
    ${LLVM_LIBRARY_DIR})
endforeach()

foreach(lib IN LISTS FP8MLIR_EXPORTED_LIBRARIES)
  # The build finds our headers through include_directories(); consumers of
  # the installed package find them through the targets.
  target_include_directories(${lib} PUBLIC
    $<BUILD_INTERFACE:${FP8_SOURCE_DIR}/include>
    $<BUILD_INTERFACE:${FP8_BINARY_DIR}/include>
    $<INSTALL_INTERFACE:${FP8MLIR_INSTALL_INCLUDE_DIR}>
    )
  # LLVM's and MLIR's headers need C++17.
  target_compile_features(${lib} PUBLIC cxx_std_17)
endforeach()

install(TARGETS ${FP8MLIR_EXPORTED_LIBRARIES}
  EXPORT FP8MLIRTargets
  ARCHIVE DESTINATION ${FP8MLIR_INSTALL_LIB_DIR}
  LIBRARY DESTINATION ${FP8MLIR_INSTALL_LIB_DIR}
  RUNTIME DESTINATION ${FP8MLIR_INSTALL_BIN_DIR}
  )

# Hand-written headers and TableGen sources (so that a consumer can include
# our .td files in its own ODS), then the headers TableGen generated from
# them in the build tree.
install(DIRECTORY
  ${FP8_SOURCE_DIR}/include/fp8
  ${FP8_SOURCE_DIR}/include/fp8-c
  DESTINATION ${FP8MLIR_INSTALL_INCLUDE_DIR}
  FILES_MATCHING
  PATTERN "*.h"
  PATTERN "*.td"
  )
install(DIRECTORY ${FP8_BINARY_DIR}/include/fp8
  DESTINATION ${FP8MLIR_INSTALL_INCLUDE_DIR}
  FILES_MATCHING
  PATTERN "*.inc"
  PATTERN "CMakeFiles" EXCLUDE
  )

install(EXPORT FP8MLIRTargets
  NAMESPACE FP8MLIR::
  FILE FP8MLIRTargets.cmake
  DESTINATION ${FP8MLIR_INSTALL_PACKAGE_DIR}
  )

# Written outside lib/cmake of the build tree so that it cannot be mistaken
# for a usable build-tree package: it only works once installed.
set(FP8MLIR_PACKAGE_BINARY_DIR ${FP8_BINARY_DIR}/FP8MLIRPackage)
set(FP8MLIR_IMPORTED_LIBRARIES ${FP8MLIR_EXPORTED_LIBRARIES})
list(TRANSFORM FP8MLIR_IMPORTED_LIBRARIES PREPEND FP8MLIR::)
list(JOIN FP8MLIR_IMPORTED_LIBRARIES " " FP8MLIR_IMPORTED_LIBRARIES)
configure_package_config_file(
  ${FP8_SOURCE_DIR}/cmake/FP8MLIRConfig.cmake.in
  ${FP8MLIR_PACKAGE_BINARY_DIR}/FP8MLIRConfig.cmake
  INSTALL_DESTINATION ${FP8MLIR_INSTALL_PACKAGE_DIR}
  PATH_VARS FP8MLIR_INSTALL_INCLUDE_DIR FP8MLIR_INSTALL_BIN_DIR
  )
# Before 1.0 a minor release may break the C++ API.
write_basic_package_version_file(
  ${FP8MLIR_PACKAGE_BINARY_DIR}/FP8MLIRConfigVersion.cmake
  VERSION ${PROJECT_VERSION}
  COMPATIBILITY SameMinorVersion
  )
install(FILES
  ${FP8MLIR_PACKAGE_BINARY_DIR}/FP8MLIRConfig.cmake
  ${FP8MLIR_PACKAGE_BINARY_DIR}/FP8MLIRConfigVersion.cmake
  DESTINATION ${FP8MLIR_INSTALL_PACKAGE_DIR}
  )
