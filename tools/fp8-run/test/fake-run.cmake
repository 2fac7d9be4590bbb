# Runs fp8-run (CMD, '|'-separated) with the CPU stand-in for libcuda.so.1 in
# FAKE_DIR first on LD_LIBRARY_PATH (see FakeCuda.cpp), after removing OUT.
# Fails unless it exits 0 and its output matches REGEX, the two files of
# SAME ('|'-separated, if given) are equal, ABSENT (if given) does not
# exist, and FILE (if given) matches FILE_REGEX.
string(REPLACE "|" ";" cmd "${CMD}")
file(REMOVE_RECURSE "${OUT}")
file(MAKE_DIRECTORY "${OUT}")
execute_process(
  COMMAND ${CMAKE_COMMAND} -E env "LD_LIBRARY_PATH=${FAKE_DIR}" ${cmd}
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
set(all "${out}${err}")
if(NOT rc STREQUAL "0")
  message(FATAL_ERROR "exit code ${rc}; output:\n${all}")
endif()
if(NOT all MATCHES "${REGEX}")
  message(FATAL_ERROR "output does not match '${REGEX}':\n${all}")
endif()
if(SAME)
  string(REPLACE "|" ";" same "${SAME}")
  execute_process(COMMAND ${CMAKE_COMMAND} -E compare_files ${same}
                  RESULT_VARIABLE differ)
  if(differ)
    message(FATAL_ERROR "files differ: ${same}\n${all}")
  endif()
endif()
if(ABSENT AND EXISTS "${ABSENT}")
  message(FATAL_ERROR "${ABSENT} exists")
endif()
if(FILE)
  file(READ "${FILE}" text)
  if(NOT text MATCHES "${FILE_REGEX}")
    message(FATAL_ERROR "${FILE} does not match '${FILE_REGEX}':\n${text}")
  endif()
endif()
