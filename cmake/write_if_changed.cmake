# write_if_changed(PATH CONTENT): writes the file only when its content changes, so that a
# reconfigure that changes nothing rebuilds nothing (the embedding scripts' generated sources).
function(write_if_changed path content)
  if(EXISTS "${path}")
    file(READ "${path}" old)
    if(old STREQUAL content)
      return()
    endif()
  endif()
  file(WRITE "${path}" "${content}")
endfunction()
