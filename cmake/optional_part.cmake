# Decides whether an optional part of the build (the tests, the benchmarks) is built. `switch` is
# ON (its package is required), OFF, or AUTO (built when find_package(<package>) finds it, which
# is what lets `make run` work with only scripts/install-deps.sh's run set). Sets `result`.
function(memplace_optional_part switch package what result)
  if("${${switch}}" STREQUAL "AUTO")
    find_package(${package} QUIET)
    if(NOT ${package}_FOUND)
      message(STATUS "memplace: the ${what} are not built: ${package} is not installed "
                     "(scripts/install-deps.sh test installs it)")
    endif()
    set(${result} ${${package}_FOUND} PARENT_SCOPE)
  elseif(${switch})
    find_package(${package} REQUIRED)
    set(${result} ON PARENT_SCOPE)
  else()
    set(${result} OFF PARENT_SCOPE)
  endif()
endfunction()
