# tgemm_install_package_config(NAME DESTINATION COMPONENT [PATH_VARS ...]):
# NAMEConfig.cmake from NAMEConfig.cmake.in (next to the calling
# CMakeLists.txt) and NAMEConfigVersion.cmake, installed into DESTINATION
# under the prefix. Both of tgemm's CMake packages (TGemm, the compiler;
# TGemmRuntime, the runtime alone) are made with it, so they share one
# version rule: before 1.0 a minor version may break the API, so
# find_package(NAME 0.2) takes any 0.2.x and nothing else.
include_guard(GLOBAL)
include(CMakePackageConfigHelpers)

function(tgemm_install_package_config name destination component)
  cmake_parse_arguments(ARG "" "" "PATH_VARS" ${ARGN})
  set(config ${CMAKE_CURRENT_BINARY_DIR}/${name}Config.cmake)
  set(version ${CMAKE_CURRENT_BINARY_DIR}/${name}ConfigVersion.cmake)
  if(ARG_PATH_VARS)
    set(path_vars PATH_VARS ${ARG_PATH_VARS})
  endif()
  configure_package_config_file(
    ${CMAKE_CURRENT_SOURCE_DIR}/${name}Config.cmake.in ${config}
    INSTALL_DESTINATION ${destination}
    ${path_vars})
  write_basic_package_version_file(${version}
    VERSION ${PROJECT_VERSION}
    COMPATIBILITY SameMinorVersion)
  install(FILES ${config} ${version}
    DESTINATION ${destination}
    COMPONENT ${component})
endfunction()
